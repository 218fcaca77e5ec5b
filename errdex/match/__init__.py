"""Matching pasted errors to raise sites: `explain(text) -> MatchResult`."""

from errdex.match.matcher import explain, match
from errdex.match.result import Candidate, MatchResult
from errdex.match.warming import warm

__all__ = ["Candidate", "MatchResult", "explain", "match", "warm"]
