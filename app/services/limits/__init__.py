"""Limits of one instance and of all together: rates per token and address shared through Redis
(:mod:`~app.services.limits.rates`: actions, lobbies, seeks, frames per socket, sockets per
player), and the account limits (:mod:`~app.services.limits.accounts`: registrations and
password attempts per address and username, record checks).
"""
