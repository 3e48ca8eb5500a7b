# contexts.sh: sourced by realclients_test.sh. The private pmcd the host
# runs talk to, and the agents of the local runs' contexts.
#
# Uses: src work prefix libdir cc pmcd_dir. Sets: pmcd_port pmcd_sock.

pcpadm=/usr/lib/pcp/bin
pcpdmas=/var/lib/pcp/pmdas

# start_pmcd: pmcd with the pmcd, Linux (pipe), sample (pipe) and sampledso
# (shared object) agents. The first start of scripts/pmcd-private.sh
# builds the sample agent's name space and help in $pmcd_dir; the second
# adds the Linux agent to its configuration and name space.
start_pmcd() {
  local ps=$src/scripts/pmcd-private.sh
  "$ps" start "$pmcd_dir" > "$work/pmcd.log" 2>&1 || { cat "$work/pmcd.log" >&2; return 1; }
  "$ps" stop "$pmcd_dir"
  ln -sfn "$pcpdmas/linux" "$pmcd_dir/pmdas/linux"
  {
    sed '/^\[access\]/,$d' "$pmcd_dir/pmcd.conf"
    printf 'linux\t60\tpipe\tbinary\t%s/pmdas/linux/pmdalinux -d 60\n\n' "$pmcd_dir"
    sed -n '/^\[access\]/,$p' "$pmcd_dir/pmcd.conf"
  } > "$work/pmcd.conf"
  "$pcpadm/pmnsmerge" -f -a "$pmcd_dir/pmns/root" /var/lib/pcp/pmns/root_linux "$work/pmns" > /dev/null ||
    return 1
  PMCD_PRIVATE_CONF=$work/pmcd.conf PMCD_PRIVATE_PMNS=$work/pmns "$ps" start "$pmcd_dir" \
    > "$work/pmcd.log" 2>&1 || { cat "$work/pmcd.log" >&2; return 1; }
  pmcd_port=$(sed -n 's/^PMCD_PORT=//p' "$work/pmcd.log")
  pmcd_sock=$(sed -n 's/^PMCD_SOCKET=//p' "$work/pmcd.log")
  [ -n "$pmcd_port" ] && [ -n "$pmcd_sock" ]
}

stop_pmcd() {
  "$src/scripts/pmcd-private.sh" stop "$pmcd_dir" 2> /dev/null
}

# setup_local: the local contexts' configurations, in the form of
# pmcd.conf. libpcp's: PCP's Linux agent and PCP's sample agent as
# sampledso (domain 30), as $pmcd_dir/pmdas holds them. Ours: our built-in
# Linux agent, and sample's source built against this library as
# sampledso, with its help in source form for domain 30.
setup_local() {
  local d=$work/ours-pmdas/sample f
  mkdir -p "$d"
  printf 'linux\t60\tdso\tlinux_init\t%s/linux/pmda_linux.so\n' "$pmcd_dir/pmdas" > "$work/local-pcp.conf"
  printf 'sampledso\t30\tdso\tsample_init\t%s/sample/pmda_sample.so\n' "$pmcd_dir/pmdas" >> "$work/local-pcp.conf"
  local sources=()
  for f in pmda sample percontext events proc; do sources+=("$pcpdmas/sample/$f.c"); done
  "$cc" -w -O2 -fPIC -shared -D_GNU_SOURCE -I"$prefix/include/pmapi-compat" -o "$d/pmda_sample.so" "${sources[@]}" \
    -L"$libdir" -lpmapi -Wl,-rpath,"$libdir" -lm > "$work/ours-pmdas/build.log" 2>&1 ||
    { cat "$work/ours-pmdas/build.log" >&2; return 1; }
  sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' "$pcpdmas/sample/help" |
    sed '/^@ SAMPLEDSO\./s/SAMPLEDSO\./30./' > "$d/dsohelp"
  local share=$prefix/share/pmapi
  {
    printf 'linux\t60\tbuiltin\tlinux_init\t%s/pmdas/linux\tpmns=%s/pmdas/linux/root_linux\n' "$share" "$share"
    # as PCP's line: no name-space file, so its names are the default name
    # space's, in its order
    printf 'sampledso\t30\tdso\tsample_init\t%s/pmda_sample.so\n' "$d"
  } > "$work/local-ours.conf"
}

# context_env KIND SIDE: the environment of one run. Every kind but
# archive names the private pmcd (so "local:" and "localhost" reach it),
# its name space, and a PCP_VAR_DIR of the run's own (agents' instance
# caches are written below it).
context_env() {
  echo TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=
  [ "$1" = archive ] && return
  echo "PMCD_PORT=$pmcd_port PMCD_SOCKET=$pmcd_sock PMNS_DEFAULT=$work/pmns PCP_VAR_DIR=$work/var"
  [ "$1" = local ] || return 0
  if [ "$2" = pcp ]; then
    echo "PCP_PMCDCONF_PATH=$work/local-pcp.conf PCP_PMDAS_DIR=$pmcd_dir/pmdas"
  else
    echo "PCP_PMCDCONF_PATH=$work/local-ours.conf PCP_PMDAS_DIR=$work/ours-pmdas"
  fi
}
