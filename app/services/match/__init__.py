"""A live match: the one write path (:mod:`.play`), its reads, sockets, durable delivery and
the bot turns the sweep drives. Imports the lobby package never; the clock and the records
below it freely (see the layers contract in ``pyproject.toml``).
"""
