"""The websockets, each through the one admission (app/api/socket_admission.py): the match's
and the lobby's (:mod:`.play`), and the live tournament page's (:mod:`.tournaments`).
"""
