# runs.sh: sourced by realclients_test.sh. The QA scripts' invocations of
# the programs, run with both builds and compared.
#
# Uses: qa here work programs status floor, context_env (contexts.sh).

kinds=(archive local host none)

qa_scripts() {
  ls "$qa"/[0-9][0-9][0-9] "$qa"/[0-9][0-9][0-9][0-9] 2> /dev/null
}

# list_runs: "KIND<TAB>src/PROGRAM ARGS", one per distinct invocation.
list_runs() {
  local progs
  progs=" $(for f in "${programs[@]}"; do basename "$f" .c; done | tr '\n' ' ') "
  # The archive invocations: those naming one of the QA archives.
  qa_scripts | xargs grep -hoE '(\$here/)?src/[a-z_0-9-]+ [^|;>&`$"]*archives/[A-Za-z0-9_.-]+[^|;>&`$"\\]*' |
    sed -e 's/^\$here\///' -e 's/ 2 *$//' -e 's/ *$//' | sort -u | sed 's/^/archive\t/'
  # The others: commands (at the start of a line or after ; | & ( or `,
  # perhaps under $sudo or _run_valgrind) outside comments, with $host
  # (the QA machine's pmcd) as localhost. An invocation still naming a
  # shell variable, continued on the next line, or started in the
  # background (a server) is left out.
  qa_scripts | xargs grep -hv -e '^[[:space:]]*#' -e '&[[:space:]]*$' |
    grep -oE '(^[[:space:]]*|[;|&(`][[:space:]]*)(\$sudo[a-z_]* |_run_valgrind )?(\$here/|\./)?src/[a-z_0-9-]+( [^|;>&`"]*)?' |
    sed -E -e 's/^[[:space:];|&(`]*//' -e 's/^(\$sudo[a-z_]* |_run_valgrind )//' -e 's/^(\$here\/|\.\/)//' \
      -e 's/[[:space:]]+#.*$//' -e 's/ 2 *$//' -e 's/ *$//' -e 's/\$host\b/localhost/g' |
    grep -v 'archives/' | grep -v '[$\\]' | sort -u |
    while read -r prog args; do
      name=${prog#src/}
      [[ $progs == *" $name "* ]] || continue
      echo -e "$(run_kind "$name" "$args")\t$prog${args:+ $args}"
    done
}

# run_kind NAME ARGS: the kind of context the invocation opens.
run_kind() {
  case " $2 " in
    *" -a "*) echo archive ;;
    *" -L "*) echo local ;;
    *" -h "*) echo host ;;
    *)
      # the program's default: a host (local: or localhost), or none
      if grep -qE 'PM_CONTEXT_HOST|pmGetContextOptions|"local:"|"localhost"' "$qa/src/$1.c"; then
        echo host
      else
        echo none
      fi
      ;;
  esac
}

# The QA directory's subdirectories, linked into each run's fresh working
# directory, so what a program writes stays in the run's own.
make_cwd_template() {
  rm -rf "$work/cwd-template"
  mkdir -p "$work/cwd-template"
  find "$qa" -mindepth 1 -maxdepth 1 -type d -exec ln -s {} "$work/cwd-template/" \;
}

# fresh_var: an empty PCP_VAR_DIR (context_env) for the next run, never
# the system's.
fresh_var() {
  rm -rf "$work/var"
  mkdir -p "$work/var/config/pmda"
}

# run_one SIDE KIND NAME ARGS OUT: stdout, stderr and status into OUT.*
run_one() {
  local side=$1 kind=$2 name=$3 args=$4 out=$5 cwd=$work/cwd.$1
  rm -rf "$cwd"
  cp -a "$work/cwd-template" "$cwd"
  # Both builds run under one name (argv[0]), so messages naming the
  # program match.
  # shellcheck disable=SC2046
  (cd "$cwd" && env $(context_env "$kind" "$side") timeout -k 2 10 \
    bash -c "exec -a $work/run/$name $work/$side/$name $args" > "$out.out" 2> "$out.err" < /dev/null
   echo "exit status $?" > "$out.status")
  mask_run "$name" "$out"
}

# mask_run NAME OUT: varying.txt's masks for NAME ("NAME<TAB>SED<TAB>why")
# applied to stdout and stderr.
mask_run() {
  local m expr
  while IFS=$'\t' read -r m expr _; do
    case "$m" in ''|'#'*) continue ;; esac
    [ "$m" = "$1" ] || [ "$m" = '*' ] || continue
    [ "$expr" = - ] && continue
    sed -i -E "$expr" "$2.out" "$2.err"
  done < "$here/varying.txt"
}

# not_compared NAME ARGS: varying.txt leaves all of NAME's runs out
# ("NAME<TAB>-"), or this one ("NAME ARGS<TAB>-").
not_compared() {
  local m expr
  while IFS=$'\t' read -r m expr _; do
    [ "$expr" = - ] || continue
    [ "$m" = "$1" ] || [ "$m" = "$1${2:+ $2}" ] && return 0
  done < "$here/varying.txt"
  return 1
}

same_run() {
  local t
  for t in out err status; do
    cmp -s "$1.pcp.$t" "$1.ours.$t" || return 1
  done
}

# run_all < runs: every invocation whose program built both ways; prints
# identical/total per kind and fails a kind below its floor.
run_all() {
  local kind prog args name n=0 k
  declare -A total=() same=()
  for k in "${kinds[@]}"; do total[$k]=0 same[$k]=0; done
  make_cwd_template
  fresh_var
  : > "$work/differ.txt"
  : > "$work/listed.txt"
  while IFS=$'\t' read -r kind prog; do
    name=$(basename "${prog%% *}")
    args=${prog#* }
    [ "$args" = "$prog" ] && args=
    [ -x "$work/pcp/$name" ] && [ -x "$work/ours/$name" ] || continue
    if not_compared "$name" "$args"; then
      echo "$kind: $name $args" >> "$work/listed.txt"
      continue
    fi
    n=$((n + 1))
    total[$kind]=$((total[$kind] + 1))
    local t0=$SECONDS
    # the two builds side by side, at the same moment, but one after the
    # other where the program writes fixed files of its own in /tmp, or
    # an agent's instance cache (below $PCP_VAR_DIR)
    if grep -qE '"/tmp/|pmdaCache' "$qa/src/$name.c" 2> /dev/null; then
      fresh_var
      run_one pcp "$kind" "$name" "$args" "$work/out/$n.pcp"
      fresh_var
    else
      run_one pcp "$kind" "$name" "$args" "$work/out/$n.pcp" &
    fi
    run_one ours "$kind" "$name" "$args" "$work/out/$n.ours"
    wait
    printf '%s\t%s\t%ss\t%s\n' "$n" "$kind" $((SECONDS - t0)) "$prog" >> "$work/out/index.txt"
    if same_run "$work/out/$n"; then
      same[$kind]=$((same[$kind] + 1))
    else
      echo "$kind $n: $name $args" >> "$work/differ.txt"
    fi
  done
  for k in "${kinds[@]}"; do
    echo "runs ($k contexts): ${same[$k]} identical of ${total[$k]}"
  done
  if [ -s "$work/listed.txt" ]; then
    echo "not compared (varying.txt):"
    sed 's/^/  /' "$work/listed.txt"
  fi
  if [ -s "$work/differ.txt" ]; then
    echo "different (outputs in $work/out/N.{pcp,ours}.{out,err,status}):"
    sed 's/^/  /' "$work/differ.txt"
  fi
  for k in "${kinds[@]}"; do
    if [ "${same[$k]}" -lt "${floor[$k]}" ]; then
      echo "FAIL: $k: ${same[$k]} identical runs, floor ${floor[$k]}" >&2
      status=1
    fi
  done
}
