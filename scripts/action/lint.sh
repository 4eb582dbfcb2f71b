#!/usr/bin/env bash
# The action's lint step (action.yml): `repkit lint` on the files of $LINT, annotations in the
# log, a SARIF log at $SARIF when asked, the error count as the step's output. REPKIT_CLI
# overrides the command run (the tests run this checkout's build).
set -uo pipefail
read -r -a cli <<< "${REPKIT_CLI:-npx --yes repkit@${REPKIT_VERSION:-latest}}"
read -r -a files <<< "${LINT}"
if [ -n "${SARIF:-}" ]; then
  mkdir -p "$(dirname "$SARIF")"
  "${cli[@]}" lint "${files[@]}" --format sarif > "$SARIF"
  [ $? -le 1 ] || exit 2
fi
"${cli[@]}" lint "${files[@]}" --format github
status=$?
errors="$("${cli[@]}" lint "${files[@]}" --json | node -e '
  const lines = require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
  console.log(lines.reduce((n, line) => n + JSON.parse(line).errors, 0));
')"
echo "errors=$errors" >> "$GITHUB_OUTPUT"
echo "repkit lint: $errors error(s)"
exit "$status"
