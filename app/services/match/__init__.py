"""A live match, by what its parts do: ``play/`` (the one write path, the computer's turns the
sweep drives, who hears of a move), ``delivery/`` (frames to the match's sockets: durable
delivery, the hub, sockets and presence), ``spectating/`` (the spectator delay) and
``insight/`` (aids and analyses); at the top what they share: :mod:`.committed` (the record of
a committed move), :mod:`.reads`, :mod:`.ongoing` and :mod:`.queries`. Imports the lobby
package never; the clock and the records below it freely (see the layers contract in
``pyproject.toml``).
"""
