"""Matching pasted errors to raise sites: `explain(text) -> MatchResult`."""

from errdex.match.matcher import explain, match
from errdex.match.result import Candidate, MatchResult

__all__ = ["Candidate", "MatchResult", "explain", "match"]
