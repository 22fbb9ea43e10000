"""HTTP and websocket routers: parse, authorise, shape; nothing else."""
