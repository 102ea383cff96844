"""Measure: pass rates, consistency and the fields it compares, statistics — numbers only, no verdict on the gate."""
