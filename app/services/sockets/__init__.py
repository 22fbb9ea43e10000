"""What an instance keeps of the sockets it serves: the sockets held by player and token, so a
revocation closes them (:mod:`.held`), and the spectators of each match counted across the
instances (:mod:`.spectators`).
"""
