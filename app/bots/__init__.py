"""Computer players that choose actions through the engine API."""
