"""Players among themselves: accounts and their sessions, closing a revoked token's sockets,
and chat. Imports no other feature package.
"""
