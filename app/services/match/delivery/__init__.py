"""Frames to a match's sockets: every committed batch to every socket of every instance
(:mod:`.delivery`), the match's hub, its sockets and the seat presence (:mod:`.sockets`), and a
spectator's socket on a delayed match, which sends the visible position instead of the live
one (:mod:`.delayed_socket`).
"""
