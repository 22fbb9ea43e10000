"""Playing a match: the one write path every move takes (:mod:`.play`), what a committed move
writes to its match row (:mod:`.row`), the computer's turns the sweep drives
(:mod:`.bot_turns`) and who hears of a committed move (:mod:`.subscribers`). The write path
imports none of those who hear of a move (an import contract in ``pyproject.toml`` keeps it
so); the record of a move they share is :mod:`app.services.match.committed`.
"""
