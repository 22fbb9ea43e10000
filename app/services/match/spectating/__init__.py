"""What a spectator sees of a live match: the spectator delay on every path a spectator reads
it through (:mod:`.delay`). A spectator's socket on a delayed match sits with the other
sockets (:mod:`app.services.match.delivery.delayed_socket`).
"""
