"""What a match leaves behind: its history, ratings, the provably fair shuffle, the verdict,
the replay viewer's steps and a table's title. Imports no other feature package.
"""
