"""Carcassonne online: rules engine, service, realtime fan-out, bots and the CLI."""
