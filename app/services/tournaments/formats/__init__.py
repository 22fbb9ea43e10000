"""The formats' rules as pure functions over plain values (no I/O): pairing the rounds (Swiss,
round-robin, arena), the standings with their tie-breaks, and the knock-out bracket.
"""
