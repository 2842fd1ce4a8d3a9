"""Renders the differential corpus with real Jinja2, as NetBox renders config templates.

Reads a JSON list of cases ({template, context, params?, templates?}) on stdin and writes
{"version": jinja2.__version__, "results": [{"output": ...} | {"error": ...}, ...]} on stdout.
"""

import json
import sys
from importlib import import_module

import jinja2
from jinja2 import DictLoader
from jinja2.sandbox import SandboxedEnvironment


def import_string(path):
    """Django's import_string, which NetBox applies to a dotted 'undefined' parameter."""
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def render(case):
    params = dict(case.get("params") or {})
    if isinstance(params.get("undefined"), str):
        params["undefined"] = import_string(params["undefined"])
    try:
        env = SandboxedEnvironment(**params, loader=DictLoader(case.get("templates") or {}))
        output = env.from_string(case["template"]).render(**case.get("context", {}))
        return {"output": output.replace("\r\n", "\n")}
    except Exception as e:  # noqa: BLE001 - every failure is a result to compare
        return {"error": f"{type(e).__name__}: {e}"}


cases = json.load(sys.stdin)
json.dump({"version": jinja2.__version__, "results": [render(c) for c in cases]}, sys.stdout)
