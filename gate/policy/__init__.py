"""Decide: thresholds, regressions against the baseline, consistency lines, outages — findings and whether the gate passed."""
