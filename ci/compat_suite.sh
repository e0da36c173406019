# A third-party library's own tests through tessera.compat (sourced by
# ci/liger.sh, ci/fla.sh, ci/flag_gems.sh, ci/mamba.sh, ci/attorch.sh,
# ci/torchao.sh and ci/xformers.sh): installs DIR/wheels into DIR/site, runs
# pytest from SRC_DIR with the compat plugin (stopped by SIGINT after
# SECONDS, 0: never; what ran is still counted), writes OUT/NAME.xml and
# OUT/NAME.log and prints the counts per file. COMPAT_BESIDE_TRITON=1: the
# same tests run at the same time on the Python's own Triton (no plugin:
# OUT/NAME-triton.xml and .log), and ci/junit_counts.py --beside lists, test
# by test, those that pass on Triton and fail on Tessera (any such test fails
# the suite); COMPAT_BESIDE_TRITON=after: on Triton after Tessera, for suites
# whose tests fill the GPU's memory (xformers').
# Needs $py and $root.
#   compat_suite NAME DIR OUT SRC_DIR SECONDS [pytest args and files...]
compat_suite() {
  local name="$1" dir="$2" out="$3" src="$4" seconds="$5"
  shift 5
  mkdir -p "$out"
  if compgen -G "$dir/wheels/*.whl" > /dev/null; then
    "$py" -m pip install -q --no-deps --no-index --target "$dir/site" "$dir"/wheels/*.whl > "$out/$name-install.log" 2>&1 \
      || { cat "$out/$name-install.log"; return 1; }
  fi
  local peer= beside="${COMPAT_BESIDE_TRITON:-}"
  on_triton() {
    (cd "$src" && PYTHONPATH="$src:$dir/site${PYTHONPATH:+:$PYTHONPATH}" timeout -s INT "$seconds" \
      "$py" -m pytest -q -p no:cacheprovider --junitxml "$out/$name-triton.xml" "$@" > "$out/$name-triton.log" 2>&1)
  }
  if [ -n "$beside" ] && [ "$beside" != after ]; then
    on_triton "$@" &
    peer=$!
  fi
  (cd "$src" && PYTHONPATH="$src:$dir/site:${PYTHONPATH:+$PYTHONPATH:}$root/python" timeout -s INT "$seconds" \
    "$py" -m pytest -q -p no:cacheprovider -p tessera.compat.pytest_plugin --junitxml "$out/$name.xml" "$@" \
    > "$out/$name.log" 2>&1)
  local rc=$?
  [ "$beside" = after ] && on_triton "$@"
  if [ -n "$beside" ]; then
    [ -z "$peer" ] || wait "$peer"
    "$py" "$root/ci/junit_counts.py" "$out/$name.xml" --beside "$out/$name-triton.xml" || rc=1
  else
    "$py" "$root/ci/junit_counts.py" "$out/$name.xml"
  fi
  return $rc
}

# A library's source from a git repository (fetched with `fetch`: GitHub is
# not reachable from these machines' scripts) and the wheels its tests need,
# for a machine without a network.
#   compat_fetch_git DIR GIT_DIR "PATHS" "WHEELS" [--python-version X.Y]
#       DIR/src: PATHS of GIT_DIR's HEAD, or of COMPAT_GIT_REF (a tag, a
#       commit) when set (its commit in DIR/COMMIT); DIR/wheels: WHEELS for
#       that Python (default: this one). Needs $py.
compat_fetch_git() {
  local dir="$1" git_dir="$2" paths="$3" wheels="$4" ref="${COMPAT_GIT_REF:-HEAD}"
  shift 4
  local pyver=()
  [ "${1:-}" = "--python-version" ] && pyver=(--python-version "$2" --only-binary=:all:
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64)
  rm -rf "$dir/src" && mkdir -p "$dir/src" "$dir/wheels"
  # shellcheck disable=SC2086  # the lists are words
  git --git-dir "$git_dir" archive "$ref" $paths | tar -x -C "$dir/src" || return 1
  git --git-dir "$git_dir" rev-parse "$ref^{commit}" > "$dir/COMMIT"
  # shellcheck disable=SC2086
  if [ -n "$wheels" ]; then  # pytest comes with the Python that runs it
    "$py" -m pip download -q -d "$dir/wheels" "${pyver[@]}" $wheels || return 1
  fi
  du -sh "$dir"
}
