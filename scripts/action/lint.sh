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
annotations="$("${cli[@]}" lint "${files[@]}" --format github)"
status=$?
# The annotations go to the log, where GitHub reads them; the errors are those of them.
[ -z "$annotations" ] || printf '%s\n' "$annotations"
errors="$(printf '%s\n' "$annotations" | grep -c '^::error ' || true)"
echo "errors=$errors" >> "$GITHUB_OUTPUT"
echo "repkit lint: $errors error(s)"
exit "$status"
