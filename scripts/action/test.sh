#!/usr/bin/env bash
# The action's test step (action.yml): `repkit test` on the specs of $SPEC (and $LIVE's served
# file), its failures as annotations, its counts as the step's outputs. REPKIT_CLI overrides
# the command run (the tests run this checkout's build instead of the published package).
set -uo pipefail
read -r -a cli <<< "${REPKIT_CLI:-npx --yes repkit@${REPKIT_VERSION:-latest}}"
read -r -a specs <<< "${SPEC:-robots.test.yaml}"
args=(test "${specs[@]}" --json)
if [ -n "${LIVE:-}" ]; then args+=(--live "$LIVE"); fi
out="$(mktemp)"
GITHUB_ACTIONS=true "${cli[@]}" "${args[@]}" > "$out"
status=$?
# JSON lines are counted; annotation lines go to the log, where GitHub reads them.
node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
  let passed = 0, failed = 0;
  for (const line of lines) {
    if (line.startsWith("{")) { const run = JSON.parse(line); passed += run.passed; failed += run.failed; }
    else console.log(line);
  }
  require("fs").appendFileSync(process.env.GITHUB_OUTPUT, `passed=${passed}\nfailed=${failed}\n`);
  console.log(`repkit test: ${passed} expectation(s) hold, ${failed} fail`);
' "$out"
rm -f "$out"
exit "$status"
