"""What the server works out about a match beyond its rules: the player aids of the current
position as the table's policy grants them (:mod:`.aids`) and the Strong player's analysis of a
finished match (:mod:`.analyses`).
"""
