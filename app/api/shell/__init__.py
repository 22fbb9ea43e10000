"""The HTTP shell around the routes: the request body limit, the request context of log lines,
the refusal of new work while draining, the retry of a request the database dropped, the static
client files and the metrics endpoint.
"""
