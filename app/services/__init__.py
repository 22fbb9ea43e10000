"""Use cases: lobbies, play (the one write path per match), spectating, replays, bots."""
