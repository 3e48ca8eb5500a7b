#!/bin/bash
# The part of pcpqa.sh that runs inside its private mount, network and pid
# namespaces: prepares the private PCP installation view, starts a private
# pmcd with the sample agents, prepares the testsuite, runs each test with
# PCP's tools and with ours, and prints the table.
set -euo pipefail
# From pcpqa.sh: WORK TOOLS TESTS KNOWN WHICH MODE QA OURS_TOOLS LIB_PROGRAMS here.
: "${WORK:?}" "${TOOLS:?}" "${QA:?}" "${here:?}"
# shellcheck source=/dev/null
. /etc/pcp.conf
export PATH="$PCP_BINADM_DIR:$PATH"
PRIV="$WORK/private"
RES="$WORK/results"
SUITE="$WORK/testsuite"

log() { echo "pcpqa: $*" >&2; }
trap 'log "setup failed at line $LINENO"' ERR

# The loopback interface, and this host's own addresses on it, so that
# `hostname` resolves to an address that reaches the private pmcd.
setup_network() {
  ip link set lo up
  local a
  for a in $(getent ahostsv4 "$(hostname)" 2>/dev/null | awk '{print $1}' | sort -u); do
    case "$a" in 127.*) ;; *) ip addr add "$a/32" dev lo 2>/dev/null || true ;; esac
  done
}

# Mounts an empty tmpfs over DIR with the same directory tree (owners and
# modes) and no files.
empty_over() {
  local d=$1 dirs
  dirs=$(cd "$d" && find . -mindepth 1 -type d -printf '%m %u %g %p\n')
  mount -t tmpfs -o "mode=$(stat -c %a "$d"),uid=$(stat -c %u "$d"),gid=$(stat -c %g "$d")" tmpfs "$d"
  echo "$dirs" | while read -r m u g p; do
    [ -n "$p" ] || continue
    install -d -m "$m" -o "$u" -g "$g" "$d/$p"
  done
}

# Mounts a fresh private copy of DIR over it.
copy_over() {
  local d=$1 c
  c="$PRIV$d"
  rm -rf "$c"
  mkdir -p "$(dirname "$c")"
  cp -a "$d" "$c"
  mount --bind "$c" "$d"
}

# The pcpqa user in group pcp and its sudo rule, as the testsuite's README
# asks, and a chkconfig that says every service is on (check otherwise
# tries to enable pmcd at boot): all visible in these namespaces only.
setup_accounts() {
  mkdir -p "$PRIV/etc" "$PRIV/sbin"
  awk -F: -v OFS=: '$1 == "pcp" { $4 = ($4 == "" ? "pcpqa" : ($4 ~ /(^|,)pcpqa(,|$)/ ? $4 : $4 ",pcpqa")) } { print }' \
    /etc/group >"$PRIV/etc/group"
  mount --bind "$PRIV/etc/group" /etc/group
  mkdir -p /etc/sudoers.d
  copy_over /etc/sudoers.d
  echo 'pcpqa ALL=(ALL) NOPASSWD: ALL' >/etc/sudoers.d/pcpqa
  chmod 0440 /etc/sudoers.d/pcpqa
  rm -rf "$PRIV/sbin" && cp -a /usr/local/sbin "$PRIV/sbin"
  printf '#!/bin/sh\nexit 0\n' >"$PRIV/sbin/chkconfig"
  chmod 755 "$PRIV/sbin/chkconfig"
  mount --bind "$PRIV/sbin" /usr/local/sbin
}

setup_mounts() {
  mkdir -p /run/pcp && chown "$PCP_USER:$PCP_GROUP" /run/pcp && chmod 775 /run/pcp
  empty_over /run/pcp
  empty_over "$PCP_LOG_DIR"
  empty_over "$PCP_TMP_DIR"
  copy_over /etc/pcp
  # The secure group's tests rewrite SASL's configuration for pmcd.
  [ -d /etc/sasl2 ] && copy_over /etc/sasl2
  copy_over "$PCP_VAR_DIR/pmns"
  copy_over "$PCP_PMDAS_DIR"
  copy_over "$PCP_VAR_DIR/config"
  # Some tests put a stand-in over pmcd or pmlogger_check and restore it
  # in their cleanup, which a test killed by the time limit never runs.
  copy_over "$PCP_BINADM_DIR"
  mount --bind "$SUITE" "$QA"
}

# pmcd's configuration with the sample agents, the PMNS with their names
# and their help texts, as the sample agent's Install would make them.
setup_sample() {
  local s="$PCP_PMDAS_DIR/sample" conf="$PCP_PMCDCONF_PATH"
  (cd "$PCP_VAR_DIR/pmns" && ./Rebuild -s -u && rm -f .NeedRebuild)
  sed 's/SAMPLE:/29:/' "$s/pmns" >"$PCP_VAR_DIR/pmns/sample"
  sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' -e 's/SAMPLEDSO:/30:/' "$s/pmns" \
    >"$PCP_VAR_DIR/pmns/sampledso"
  (cd "$PCP_VAR_DIR/pmns" && pmnsadd -n root sample && pmnsadd -n root sampledso) >/dev/null
  (cd "$s" && sed '/^@ SAMPLE\./s/SAMPLE\./29./' help | newhelp -n "$PCP_VAR_DIR/pmns/root" -o help)
  (cd "$s" && sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' help >dsohelp &&
    sed '/^@ SAMPLEDSO\./s/SAMPLEDSO\./30./' dsohelp | newhelp -n "$PCP_VAR_DIR/pmns/root" -o dsohelp)
  chown -R "$PCP_USER:$PCP_GROUP" "$s" 2>/dev/null || true
  awk -v s="$s" '
    /^(sample|sampledso)[ \t]/ { next }
    /^\[access\]/ && !done {
      print "sample\t29\tpipe\tbinary\t\t" s "/pmdasample -d 29"
      print "sampledso\t30\tdso\tsample_init\t" s "/pmda_sample.so"
      print ""; done = 1
    }
    { print }
    END {
      if (!done) {
        print "sample\t29\tpipe\tbinary\t\t" s "/pmdasample -d 29"
        print "sampledso\t30\tdso\tsample_init\t" s "/pmda_sample.so"
      }
    }' "$conf" >"$conf.new"
  mv "$conf.new" "$conf"
}

start_pmcd() {
  local opts
  opts=$(sed -e 's/#.*//' "$PCP_PMCDOPTIONS_PATH" 2>/dev/null | tr '\n' ' ')
  # shellcheck disable=SC2086
  (cd "$PCP_LOG_DIR/pmcd" && "$PCP_BINADM_DIR/pmcd" $opts)
  pmcd_wait -t 30 || { cat "$PCP_LOG_DIR/pmcd/pmcd.log" >&2; return 1; }
}

as_pcpqa() {
  sudo -u pcpqa -H bash -c "cd $QA && $1"
}

# The testsuite is a copy in WORK, refreshed when the installed version
# changes; its helper programs and tmparch archives are built there once.
prepare_copy() {
  local v
  v=$(dpkg-query -W -f='${Version}' pcp-testsuite 2>/dev/null || echo unknown)
  if [ ! -f "$SUITE/.pcpqa-version" ] || [ "$(cat "$SUITE/.pcpqa-version")" != "$v" ]; then
    log "copying the testsuite ($v)"
    rm -rf "$SUITE"
    cp -a "$QA" "$SUITE"
    echo "$v" >"$SUITE/.pcpqa-version"
  fi
}

# Run inside the mounted copy: local config, check's recovery actions
# (restarting pmcd, reinstalling agents, starting pmlogger) turned off,
# the helper programs the chosen tests call, the tmparch archives.
prepare_suite() {
  as_pcpqa './mk.localconfig >/dev/null'
  if ! grep -q "^# pcpqa harness" "$QA/common.setup" 2>/dev/null; then
    printf '# pcpqa harness\nOPTION_AGENTS=false\nOPTION_LOGGER=false\nOPTION_REMOTE=false\nOPTION_PMCD_TRACE=false\n' \
      >>"$QA/common.setup"
  fi
  local t progs=""
  for t in $TESTS; do
    [ -f "$QA/$t" ] || continue
    progs="$progs $(grep -oE 'src/[A-Za-z_][A-Za-z0-9_.-]*' "$QA/$t" | sed 's,^src/,,' | sort -u | tr '\n' ' ' || true)"
  done
  # The filters every test sources (common.filter's hex2nbo, ...).
  progs="$progs $(cat "$QA"/common* 2>/dev/null | grep -oE 'src/[A-Za-z_][A-Za-z0-9_.-]*' | sed 's,^src/,,' | sort -u | tr '\n' ' ' || true)"
  local need=""
  for p in $(echo "$progs" | tr ' ' '\n' | sort -u); do
    case "$p" in *.c | *.h | *.o | *.sh | *.py | *.pl) continue ;; esac
    [ -e "$QA/src/$p" ] && continue
    [ -f "$QA/src/$p.c" ] || [ -f "$QA/src/$p.cpp" ] || continue
    need="$need $p"
  done
  if [ -n "$need" ]; then
    log "building QA helpers:$need"
    as_pcpqa "make -k -C src $need" >"$WORK/make-src.log" 2>&1 || log "some helpers did not build (see $WORK/make-src.log)"
  fi
  prepare_tmparch
}

# The tmparch archives the chosen tests name (pmlogger recording from the
# private pmcd, as tmparch's GNUmakefile makes them), each made once.
prepare_tmparch() {
  local t n want="" all
  all=$(sed -n '/^MKARCH/,/^$/p' "$QA/tmparch/GNUlocaldefs" | tr -s ' \\\t' '\n')
  for t in $TESTS; do
    [ -f "$QA/$t" ] || continue
    for n in $(grep -oE 'tmparch/[A-Za-z0-9_-]+' "$QA/$t" | sed 's,^tmparch/,,' | sort -u || true); do
      echo "$all" | grep -qx "$n.0" && [ ! -f "$QA/tmparch/$n.0" ] && want="$want $n.0"
    done
  done
  # In MKARCH's order: some are made from others (bad-1 from foo).
  want=$(for n in $all; do case " $want " in *" $n "*) echo "$n" ;; esac; done | tr '\n' ' ')
  [ -n "${want// /}" ] || return 0
  log "making tmparch archives:$want"
  as_pcpqa "make -C tmparch check_pmcd_stable $want" >"$WORK/make-tmparch.log" 2>&1 ||
    log "some tmparch archives were not made (see $WORK/make-tmparch.log)"
}

# Wrappers standing in for our tools: argv[0] kept (pmevent is a link to
# pmval), our library found whatever the build directory's permissions.
prepare_ours() {
  local o="$WORK/ours" t
  rm -rf "$o"
  mkdir -p "$o/bin" "$o/lib" "$o/wrap"
  cp -L "$TOOLS/../libpmapi/libpmapi.so.0" "$o/lib/"
  # the libraries PCP's compiled agents are bound to, where an installed
  # libpmapi finds them
  mkdir -p "$o/lib/pmapi/nodes"
  cp -L "$TOOLS/../dropin/nodes/libpcp.so.3" "$TOOLS/../dropin/nodes/libpcp_pmda.so.3" "$o/lib/pmapi/nodes/"
  for t in $OURS_TOOLS; do
    install -m 755 "$TOOLS/$t" "$o/bin/$t"
    printf '#!/bin/bash\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec -a "$0" %s "$@"\n' \
      "$o/lib" "$o/bin/$t" >"$o/wrap/$t"
  done
  # the built-in agents' configuration, help and names, where the tools
  # look for them (relative to their own directory, as when installed)
  if [ -f "$TOOLS/../cmake_install.cmake" ]; then
    cmake --install "$TOOLS/.." --prefix "$o" --component common >"$WORK/install-ours.log" 2>&1 ||
      log "our agents' files were not installed (see $WORK/install-ours.log)"
  fi
  chmod -R a+rX "$o"
  chmod 755 "$o"/wrap/*
}

# Lib mode: our libpcp.so.3, a copy of each client program, and a wrapper
# for each that runs the copy over our library as pmapi-run does (the
# name it was called by kept as argv[0], so that Python finds its prefix).
prepare_lib() {
  local l="$WORK/lib" p
  rm -rf "$l"
  mkdir -p "$l/dropin" "$l/real" "$l/wrap"
  cp -L "$TOOLS/../dropin/lib/libpcp.so.3" "$TOOLS/../dropin/lib/libpcp_pmda.so.3" "$l/dropin/"
  ln -s libpcp.so.3 "$l/dropin/libpmapi-dropin.so.3"  # the drop-in's own alias
  for p in $LIB_PROGRAMS; do
    [ -x "$p" ] || continue
    cp -L "$p" "$l/real/$(basename "$p")"
    printf '#!/bin/bash\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec -a "$0" %s "$@"\n' \
      "$l/dropin" "$l/real/$(basename "$p")" >"$l/wrap/$(basename "$p")"
  done
  chmod -R a+rX "$l"
  chmod 755 "$l"/wrap/*
}

# The mounts that put ours in place for one test.
ours_binds() {
  local binds="" b
  if [ "$MODE" = lib ]; then
    for b in $LIB_PROGRAMS; do
      [ -f "$WORK/lib/wrap/$(basename "$b")" ] && binds="$binds mount --bind $WORK/lib/wrap/$(basename "$b") $b;"
    done
  else
    for b in $OURS_TOOLS; do binds="$binds mount --bind $WORK/ours/wrap/$b /usr/bin/$b;"; done
  fi
  echo "$binds"
}

# One test with PCP's tools or ours; prints its verdict (runtest.sh).
run_one() {
  local v=$1 t=$2 dir="$RES/$1" run
  rm -f "$dir/$t".*
  run="sudo -u pcpqa -H $WORK/runtest.sh $t $dir"
  if [ "$v" = ours ]; then
    local binds
    binds=$(ours_binds)
    unshare --mount --propagation private -- bash -c "$binds exec $run" 2>"$dir/$t.err" || echo error
  else
    $run 2>"$dir/$t.err" || echo error
  fi
}

run_all() {
  local t p o start
  rm -rf "$RES"
  mkdir -p "$RES/pcp" "$RES/ours"
  chown pcpqa "$RES/pcp" "$RES/ours"
  install -m 755 "$here/runtest.sh" "$WORK/runtest.sh"
  : >"$RES/table"
  start=$(date +%s)
  for t in $TESTS; do
    p=-; o=-
    [ "$WHICH" = ours ] || p=$(run_one pcp "$t")
    [ "$WHICH" = pcp ] || o=$(run_one ours "$t")
    printf '%s\t%s\t%s\n' "$t" "$p" "$o" | tee -a "$RES/table" >&2
  done
  echo "$(($(date +%s) - start))" >"$RES/seconds"
}

main() {
  setup_network
  prepare_copy
  setup_mounts
  setup_accounts
  setup_sample
  start_pmcd
  prepare_suite
  if [ "$WHICH" != pcp ]; then
    if [ "$MODE" = lib ]; then prepare_lib; else prepare_ours; fi
  fi
  if [ -n "${PCPQA_EXEC:-}" ]; then
    # For investigating: a command run in the prepared namespaces.
    bash -c "$PCPQA_EXEC"
    return
  fi
  run_all
  bash "$here/report.sh" "$RES" "$KNOWN"
}

main
