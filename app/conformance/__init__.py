"""The conformance corpus: golden game records with expected final scores (docs/conformance/).

:mod:`app.conformance.corpus` builds the corpus from real engine games (chosen seeds, strategies
and, for one rare rule, a chosen opening) and names the rules each record exercises by scanning
its replay events; :mod:`app.conformance.check` replays a folder of records and reports
agreement per file (``carcassonne conformance DIR``). Both use only the engine: no I/O beyond
the files they are given.
"""
