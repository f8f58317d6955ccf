#!/usr/bin/env python3
"""Runs the steps of a composite GitHub Action (action.yml) as the Actions runner does, for hubgeo's tests.

What the runner does and this script does too (actions/runner: CompositeActionHandler, ScriptHandler,
FileCommandManager, ActionCommandManager, IssueMatcher):
  - `${{ … }}` in a step's `run`, `env` and `with` is replaced by its value before the step runs: inputs
    (given or their defaults), github.*, runner.*, steps.ID.outputs.NAME; an expression this script does
    not know is an error, never an empty string;
  - a `run` step is `bash --noprofile --norc -eo pipefail FILE` (shell: bash) in the workspace, with
    GITHUB_ACTIONS=true, GITHUB_WORKSPACE, GITHUB_ACTION_PATH, RUNNER_TEMP, RUNNER_TOOL_CACHE, RUNNER_OS,
    and new GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH files; afterwards their lines (NAME=VALUE or the
    NAME<<DELIMITER form) become the step's outputs, the next steps' environment and PATH;
  - stdout and stderr are one log, read line by line: a line that starts with `::` (after white space)
    is a workflow command (add-matcher, remove-matcher, error, warning, notice, group, endgroup, debug;
    any other is recorded), and so is a line holding `##[` (the legacy form); the other lines go through
    the registered problem matchers, whose regexp (one pattern) makes an annotation; a matched file is
    resolved against the workspace and dropped when it does not exist there, as the runner does;
  - a step that exits non-zero fails the action, and the later steps do not run.
A `uses` step (actions/cache) is not run: there is no cache service here, so it is a cache miss.

Usage: action_runner.py ACTION_YML --workspace DIR --temp DIR --tool-cache DIR [--input NAME=VALUE]...
                        [--github KEY=VALUE]... [--timeout SECONDS]
Prints one JSON object: {"status": 0|1, "steps": [{"name", "id", "skipped", "status", "log", "outputs"}],
"annotations": [{"source": "command"|"matcher", "severity", "file", "line", "column", "message", "code"}],
"commands": [lines the runner would read as commands]}.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def parse_file_command(path):
    """NAME=VALUE lines and NAME<<DELIMITER … DELIMITER blocks, as the runner reads GITHUB_OUTPUT and GITHUB_ENV."""
    values = {}
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            while index < len(lines) and lines[index] != delimiter:
                body.append(lines[index])
                index += 1
            if index >= len(lines):
                raise SystemExit(f"{path}: no closing delimiter {delimiter}")
            index += 1
            values[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            raise SystemExit(f"{path}: invalid line {line!r}")
    return values


class Runner:
    def __init__(self, action_path, arguments):
        self.action_file = action_path
        with open(action_path, encoding="utf-8") as handle:
            self.action = yaml.safe_load(handle)
        if self.action["runs"]["using"] != "composite":
            raise SystemExit("not a composite action")
        declared = self.action.get("inputs") or {}
        self.inputs = {name: str(spec.get("default", "")) for name, spec in declared.items()}
        for item in arguments.input:
            name, value = item.split("=", 1)
            if name not in declared:
                raise SystemExit(f"unexpected input {name}")
            self.inputs[name] = value
        self.workspace = os.path.abspath(arguments.workspace)
        self.temp = os.path.abspath(arguments.temp)
        self.tool_cache = os.path.abspath(arguments.tool_cache)
        self.timeout = arguments.timeout
        self.github = {
            "action_path": os.path.dirname(os.path.abspath(action_path)),
            "workspace": self.workspace,
            "server_url": "https://github.com",
            "action_repository": "",
            "event_name": "push",
            "event.pull_request.base.sha": "",
        }
        for item in arguments.github:
            key, value = item.split("=", 1)
            self.github[key] = value
        self.runner = {"temp": self.temp, "tool_cache": self.tool_cache, "os": "Linux", "arch": "X64"}
        self.steps = {}
        self.env = {}
        self.path = []
        self.matchers = {}
        self.annotations = []
        self.commands = []

    def value(self, expression):
        parts = expression.split(".")
        if parts[0] == "inputs" and len(parts) == 2 and parts[1] in self.inputs:
            return self.inputs[parts[1]]
        if parts[0] == "github" and ".".join(parts[1:]) in self.github:
            return self.github[".".join(parts[1:])]
        if parts[0] == "runner" and len(parts) == 2 and parts[1] in self.runner:
            return self.runner[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        raise SystemExit(f"unknown expression ${{{{ {expression} }}}}")

    def substitute(self, text):
        return EXPRESSION.sub(lambda match: self.value(match.group(1)), str(text))

    def read_log_line(self, line):
        stripped = line.lstrip()
        if stripped.startswith("::") or "##[" in line:
            self.commands.append(line)
        if stripped.startswith("::"):
            match = re.match(r"::([A-Za-z-]+)(?: ([^:]*))?::(.*)$", stripped)
            if not match:
                return
            name, properties, data = match.group(1), match.group(2) or "", match.group(3)
            if name == "add-matcher":
                with open(data, encoding="utf-8") as handle:
                    for matcher in json.load(handle)["problemMatcher"]:
                        self.matchers[matcher["owner"]] = matcher
            elif name == "remove-matcher":
                owner = dict(p.split("=", 1) for p in properties.split(",") if "=" in p).get("owner")
                self.matchers.pop(owner, None)
            elif name in ("error", "warning", "notice"):
                fields = dict(p.split("=", 1) for p in properties.split(",") if "=" in p)
                self.annotations.append({"source": "command", "severity": name, "file": fields.get("file"),
                                         "line": fields.get("line"), "column": fields.get("col"),
                                         "message": data, "code": fields.get("title")})
            return
        for matcher in self.matchers.values():
            pattern = matcher["pattern"][0]
            match = re.search(pattern["regexp"], line)
            if not match:
                continue

            def group(key):
                return match.group(pattern[key]) if key in pattern else None

            file = group("file")
            if file is not None:
                resolved = os.path.normpath(os.path.join(self.workspace, file))
                file = os.path.relpath(resolved, self.workspace) if os.path.isfile(resolved) else None
            self.annotations.append({"source": "matcher", "severity": group("severity") or matcher.get("severity", "error"),
                                     "file": file, "line": group("line"), "column": group("column"),
                                     "message": group("message"), "code": group("code")})
            break

    def run_step(self, step):
        record = {"name": step.get("name", ""), "id": step.get("id"), "skipped": False, "status": 0, "log": [], "outputs": {}}
        if "if" in step:
            raise SystemExit("`if:` on a step is not supported here")
        if "uses" in step:
            for value in (step.get("with") or {}).values():
                self.substitute(value)
            record["skipped"] = True
            return record
        if step.get("shell") != "bash":
            raise SystemExit(f"step {record['name']}: shell must be bash")
        files = {}
        for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH"):
            handle, files[name] = tempfile.mkstemp(prefix=name.lower() + "-", dir=self.temp)
            os.close(handle)
        environment = dict(os.environ)
        environment.update(self.env)
        environment.update({
            "GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_WORKSPACE": self.workspace,
            "GITHUB_ACTION_PATH": self.github["action_path"], "GITHUB_EVENT_NAME": self.github["event_name"],
            "RUNNER_TEMP": self.temp, "RUNNER_TOOL_CACHE": self.tool_cache, "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
            **files,
        })
        environment["PATH"] = os.pathsep.join(list(reversed(self.path)) + [environment.get("PATH", "")])
        for name, value in (step.get("env") or {}).items():
            environment[name] = self.substitute(value)
        handle, script = tempfile.mkstemp(suffix=".sh", dir=self.temp)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(self.substitute(step["run"]))
        directory = os.path.join(self.workspace, self.substitute(step.get("working-directory", ".")))
        try:
            process = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=directory,
                                     env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise SystemExit(f"step {record['name']} ran longer than {self.timeout} s")
        text = process.stdout.decode("utf-8", errors="replace")
        record["log"] = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
        if record["log"] == [""]:
            record["log"] = []
        for line in record["log"]:
            self.read_log_line(line)
        record["status"] = process.returncode
        record["outputs"] = parse_file_command(files["GITHUB_OUTPUT"])
        self.env.update(parse_file_command(files["GITHUB_ENV"]))
        with open(files["GITHUB_PATH"], encoding="utf-8") as path_file:
            self.path += [line for line in path_file.read().split("\n") if line]
        if record["id"]:
            self.steps[record["id"]] = record["outputs"]
        return record

    def run(self):
        records = []
        status = 0
        for step in self.action["runs"]["steps"]:
            if status != 0:
                records.append({"name": step.get("name", ""), "id": step.get("id"), "skipped": True, "status": None,
                                "log": [], "outputs": {}})
                continue
            record = self.run_step(step)
            records.append(record)
            if record["status"] not in (0, None):
                status = 1
        return {"status": status, "steps": records, "annotations": self.annotations, "commands": self.commands}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action")
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--temp", required=True)
    parser.add_argument("--tool-cache", required=True)
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--github", action="append", default=[])
    parser.add_argument("--timeout", type=float, default=120)
    arguments = parser.parse_args()
    json.dump(Runner(arguments.action, arguments).run(), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
