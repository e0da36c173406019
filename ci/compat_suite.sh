# A third-party library's own tests through tessera.compat (sourced by
# ci/liger.sh and ci/fla.sh): installs DIR/wheels into DIR/site, runs pytest
# from SRC_DIR with the compat plugin (stopped by SIGINT after SECONDS, 0:
# never; what ran is still counted), writes OUT/NAME.xml and OUT/NAME.log
# and prints the counts per file. Needs $py and $root.
#   compat_suite NAME DIR OUT SRC_DIR SECONDS [pytest args and files...]
compat_suite() {
  local name="$1" dir="$2" out="$3" src="$4" seconds="$5"
  shift 5
  mkdir -p "$out"
  "$py" -m pip install -q --no-deps --no-index --target "$dir/site" "$dir"/wheels/*.whl > "$out/$name-install.log" 2>&1 \
    || { cat "$out/$name-install.log"; return 1; }
  (cd "$src" && PYTHONPATH="$src:$dir/site:${PYTHONPATH:+$PYTHONPATH:}$root/python" timeout -s INT "$seconds" \
    "$py" -m pytest -q -p no:cacheprovider -p tessera.compat.pytest_plugin --junitxml "$out/$name.xml" "$@" \
    > "$out/$name.log" 2>&1)
  local rc=$?
  "$py" "$root/ci/junit_counts.py" "$out/$name.xml"
  return $rc
}
