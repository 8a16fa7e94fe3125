"""The `.ad` script language: tokens, parser, model, formatter, variables, plan and digest."""

from replay.errors import ScriptErrors
from replay.script.ast import Action, Annotation, Blank, Comment, Context, Env, Script, Target
from replay.script.evidence import TargetEvidence
from replay.script.formatter import format_script
from replay.script.parser import parse, parse_collect
from replay.script.plan import Plan, PlanStep, build_plan, plan_digest
from replay.script.selector import Selector, parse_selector

__all__ = [
    "Action",
    "Annotation",
    "Blank",
    "Comment",
    "Context",
    "Env",
    "Plan",
    "Script",
    "ScriptErrors",
    "Selector",
    "PlanStep",
    "Target",
    "TargetEvidence",
    "build_plan",
    "format_script",
    "parse",
    "parse_collect",
    "parse_selector",
    "plan_digest",
]
