"""The broker (Redis or in-process) and websocket fan-out."""
