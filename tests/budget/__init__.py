"""What a move costs, guarded: Postgres statements, commits and WAL, HOT updates of the match
row, and the Python objects of a move (counts, not times).
"""
