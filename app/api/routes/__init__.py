"""The REST and websocket routers, one module per resource: every path under
``/api/<resource>`` lives in ``routes/<resource>.py`` (``sockets.py``: the ``/ws/...`` sockets).
"""
