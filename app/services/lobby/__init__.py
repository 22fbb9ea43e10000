"""Tables before play: the lobby (options, start, rematch), its seats and the "Play now" seek
pool. Never imports the live match package: starting a match writes its row and hands over.
"""
