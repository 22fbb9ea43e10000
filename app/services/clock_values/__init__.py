"""The match clock's values, pure and typed: time controls and time-out policies
(:mod:`.controls`) and the running clock of a match (:mod:`.match_clock`). They sit below the
feature packages so the instance-wide cache (:mod:`app.services.cache`) can hold a cached
match's clock typed; the rules that change a clock are :mod:`app.services.clock`.
"""
