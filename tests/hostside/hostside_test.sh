#!/bin/bash
# hostside_test.sh: host contexts as PCP makes them, side by side with
# PCP 6.0.3. Each case of cases.txt runs three ways: PCP's tool on PCP's
# libpcp, our tool, and PCP's tool over our drop-in libpcp.so.3 (the
# launcher). Standard output, standard error and exit status must be the
# same byte for byte.
#
#   tests/hostside/hostside_test.sh SOURCE_DIR BUILD_DIR WORK_DIR [GROUP...]
#
# Groups (default: all): spec (host specifications libpcp reads oddly or
# refuses, with its reports; no daemon), proxy (through a private pmproxy), container (a
# private pmcd with PCP's root and Linux agents, which resolve
# containers), tls (a private pmcd serving TLS with certificates made
# here: a CA, a server certificate it signed, another CA, and client
# settings files for the cases in $TLS_DIR), auth (private pmcds with
# their own SASL configuration and user database, one of them demanding
# authentication: pmcd -S; the user is "nobody", whom the system knows). Every daemon is private, started here on its own ports
# and stopped at the end; nothing already running is touched.
#
# cases.txt: one case per line, "GROUP<TAB>ENV<TAB>TOOL ARGS" (ENV is "-"
# or NAME=VALUE words). $PMCD_PORT, $PROXY_PORT, $CTR_PORT, $CTR_SOCKET,
# $TLS_PORT and $TLS_DIR are replaced by the daemons' ports, sockets and
# the TLS files' directory; $SASL_PORT, $SASLS_PORT and $SASLS_SOCKET the
# SASL pmcds'. An ENV word STDIN=TEXT gives the run TEXT and a newline on
# its standard input. A TOOL written @NAME is tests/hostside/NAME.c, built
# here against <pcp/pmapi.h> and libpcp, and run over PCP's libpcp for
# PCP's side and over ours (the launcher) for the other sides. Prints one line per case
# and a count per group; exits 0 when every case is the same, 77 when PCP
# is not installed. With HOSTSIDE_LIB=0 the third way is left out (a
# sanitized build: PCP's programs cannot load a sanitized libpcp.so.3; the
# @NAME cases, which reach our library only through it, are left out).
set -uo pipefail

src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$3
shift 3
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(spec proxy container tls auth)
here=$src/tests/hostside
sides=(pcp ours lib)
[ "${HOSTSIDE_LIB:-1}" = 0 ] && sides=(pcp ours)
run=$build/dropin/pmapi-run-build
pcpbin=/usr/bin
[ -x /usr/lib/pcp/bin/pmcd ] && [ -x /usr/lib/pcp/bin/pmproxy ] && [ -x "$pcpbin/pminfo" ] || {
  echo "hostside: PCP is not installed"
  exit 77
}
rm -rf "$work"
mkdir -p "$work/out"
export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=
unset PMCD_HOST PMCD_PORT PMCD_SOCKET PMPROXY_HOST PMPROXY_PORT PCP_CONTAINER PCP_SECURE_SOCKETS

started=()
cleanup() {
  local d
  for d in "${started[@]}"; do
    case "$d" in
      proxy:*) "$src/scripts/pmproxy-private.sh" stop "${d#proxy:}" ;;
      pmcd:*) "$src/scripts/pmcd-private.sh" stop "${d#pmcd:}" ;;
    esac
  done
}
trap cleanup EXIT

# value NAME FILE: NAME=value from a start script's output
value() { sed -n "s/^$1=//p" "$2"; }

start_sample_pmcd() {
  local d=$work/pmcd
  "$src/scripts/pmcd-private.sh" start "$d" >"$work/pmcd.env" 2>&1 || { cat "$work/pmcd.env"; return 1; }
  started+=("pmcd:$d")
  PMCD_PORT=$(value PMCD_PORT "$work/pmcd.env")
}

start_proxy() {
  local d=$work/pmproxy
  "$src/scripts/pmproxy-private.sh" start "$d" >"$work/pmproxy.env" 2>&1 || { cat "$work/pmproxy.env"; return 1; }
  started+=("proxy:$d")
  PROXY_PORT=$(value PMPROXY_PORT "$work/pmproxy.env")
}

# A pmcd with PCP's root agent (pmdaroot, which finds containers) and its
# Linux agent (which asks pmdaroot for the container a client names).
start_container_pmcd() {
  local d=$work/ctr
  mkdir -p "$d"
  /usr/lib/pcp/bin/pmnsmerge -a -f /var/lib/pcp/pmns/root_root /var/lib/pcp/pmns/root_pmcd \
    /var/lib/pcp/pmns/root_linux "$d/root" >/dev/null || return 1
  {
    printf 'root\t1\tpipe\tbinary\t/var/lib/pcp/pmdas/root/pmdaroot\n'
    printf 'pmcd\t2\tdso\tpmcd_init\t/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n'
    printf 'linux\t60\tpipe\tbinary\t/var/lib/pcp/pmdas/linux/pmdalinux\n'
    printf '\n[access]\nallow "local:*" : all;\ndisallow ".*" : store;\n'
  } >"$d/pmcd.conf"
  PMCD_PRIVATE_CONF=$d/pmcd.conf PMCD_PRIVATE_PMNS=$d/root \
    "$src/scripts/pmcd-private.sh" start "$d/run" >"$work/ctr.env" 2>&1 || { cat "$work/ctr.env"; return 1; }
  started+=("pmcd:$d/run")
  CTR_PORT=$(value PMCD_PORT "$work/ctr.env")
  CTR_SOCKET=$(value PMCD_SOCKET "$work/ctr.env")
}

# The TLS files: a CA and the server's certificate signed by it, another
# CA that signed nothing here, the server's settings, and one client
# settings file per case.
make_tls_files() {
  local d=$TLS_DIR
  mkdir -p "$d"
  (
    cd "$d" || exit 1
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=hostside CA" &&
      openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost" &&
      openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 &&
      openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.crt -days 2 -subj "/CN=other CA"
  ) >"$work/openssl.log" 2>&1 || { cat "$work/openssl.log"; return 1; }
  printf 'tls-cert-file = %s/server.crt\ntls-key-file = %s/server.key\ntls-ca-cert-file = %s/ca.crt\n' \
    "$d" "$d" "$d" >"$d/server.conf"
  printf 'tls-ca-cert-file = %s/ca.crt\n' "$d" >"$d/ca.conf"
  printf '# checks the server\n  tls-ca-cert-file: %s/ca.crt # ours\ntls-verify-clients = true\n' "$d" >"$d/verify.conf"
  printf 'tls-ca-cert-file = %s/other.crt\ntls-verify-clients = yes\n' "$d" >"$d/wrongca.conf"
  printf 'tls-verify-clients = true\n' >"$d/systemca.conf"
  printf 'tls-ca-cert-file = %s/missing.crt\n' "$d" >"$d/missingca.conf"
  printf 'tls-ca-cert-dir = %s/nodir\n' "$d" >"$d/missingdir.conf"
  printf 'tls-ciphers = NO-SUCH-CIPHER\n' >"$d/ciphers.conf"
  printf 'tls-ciphersuites = NO_SUCH_SUITE\n' >"$d/suites.conf"
  printf 'tls-client-cert-file = %s/missing.crt\n' "$d" >"$d/clientcert.conf"
  printf 'tls-cert-file = %s/server.crt\ntls-key-file = %s/missing.key\n' "$d" "$d" >"$d/clientkey.conf"
  printf 'tls-ca = %s/ca.crt\ntls-verify-clients = true\n' "$d" >"$d/prefix.conf"
  printf 'tls-ca-cert-file = %s/ca.crt\ntls-verify-clients = true' "$d" >"$d/nonewline.conf"
}

# A pmcd that offers TLS (its sample agents as the private pmcd's), and
# authentication as the SASL pmcds do.
start_tls_pmcd() {
  make_tls_files || return 1
  PCP_TLSCONF_PATH=$TLS_DIR/server.conf PCP_SASL2_CONFIG_PATH=$SASL_DIR \
    "$src/scripts/pmcd-private.sh" start "$work/tlspmcd" \
    >"$work/tls.env" 2>&1 || { cat "$work/tls.env"; return 1; }
  started+=("pmcd:$work/tlspmcd")
  TLS_PORT=$(value PMCD_PORT "$work/tls.env")
}

# SASL's configuration for pmcd (its application name): the PLAIN
# mechanism, checked against a user database of its own.
make_sasl_files() {
  mkdir -p "$SASL_DIR"
  printf 'mech_list: plain\nsasldb_path: %s/sasldb2\n' "$SASL_DIR" >"$SASL_DIR/pmcd.conf"
  printf 'secret' | saslpasswd2 -p -f "$SASL_DIR/sasldb2" -a pmcd -c nobody
}

# Two pmcds with that configuration: one offering authentication, one
# demanding it (-S).
start_sasl_pmcds() {
  PCP_SASL2_CONFIG_PATH=$SASL_DIR "$src/scripts/pmcd-private.sh" start "$work/saslpmcd" \
    >"$work/sasl.env" 2>&1 || { cat "$work/sasl.env"; return 1; }
  started+=("pmcd:$work/saslpmcd")
  SASL_PORT=$(value PMCD_PORT "$work/sasl.env")
  PCP_SASL2_CONFIG_PATH=$SASL_DIR PMCD_PRIVATE_ARGS=-S "$src/scripts/pmcd-private.sh" start "$work/saslspmcd" \
    >"$work/sasls.env" 2>&1 || { cat "$work/sasls.env"; return 1; }
  started+=("pmcd:$work/saslspmcd")
  SASLS_PORT=$(value PMCD_PORT "$work/sasls.env")
  SASLS_SOCKET=$(value PMCD_SOCKET "$work/sasls.env")
}

wanted() {
  local g
  for g in "${groups[@]}"; do [ "$g" = "$1" ] && return 0; done
  return 1
}

# The C programs the cases run as @NAME.
mkdir -p "$work/bin"
for c in "$here"/*.c; do
  cc -O2 -o "$work/bin/$(basename "$c" .c)" "$c" -lpcp >"$work/cc.log" 2>&1 ||
    { cat "$work/cc.log"; exit 1; }
done

PMCD_PORT= PROXY_PORT= CTR_PORT= CTR_SOCKET= TLS_PORT= TLS_DIR=$work/tls
SASL_PORT= SASLS_PORT= SASLS_SOCKET= SASL_DIR=$work/sasl
if wanted tls || wanted auth; then
  command -v openssl >/dev/null && command -v saslpasswd2 >/dev/null || {
    echo "hostside: openssl or saslpasswd2 is missing (scripts/install-deps.sh --pcp)"
    exit 1
  }
  make_sasl_files || exit 1
fi
if wanted proxy || wanted tls || wanted auth; then start_sample_pmcd && start_proxy || exit 1; fi
if wanted container; then start_container_pmcd || exit 1; fi
if wanted tls || wanted auth; then start_tls_pmcd || exit 1; fi
if wanted auth; then start_sasl_pmcds || exit 1; fi

# expand TEXT: the case's placeholders replaced
expand() {
  local t=$1
  t=${t//\$PMCD_PORT/$PMCD_PORT}
  t=${t//\$PROXY_PORT/$PROXY_PORT}
  t=${t//\$CTR_PORT/$CTR_PORT}
  t=${t//\$CTR_SOCKET/$CTR_SOCKET}
  t=${t//\$TLS_PORT/$TLS_PORT}
  t=${t//\$TLS_DIR/$TLS_DIR}
  t=${t//\$SASLS_PORT/$SASLS_PORT}
  t=${t//\$SASLS_SOCKET/$SASLS_SOCKET}
  t=${t//\$SASL_PORT/$SASL_PORT}
  printf '%s' "$t"
}

# run_side SIDE N ENV TOOL ARGS...: one run, its output in out/N.SIDE
run_side() {
  local side=$1 n=$2 envs=$3 tool=$4
  shift 4
  local -a cmd
  case "$side:$tool" in
    pcp:@*) cmd=("$work/bin/${tool#@}") ;;
    *:@*) cmd=("$run" "$work/bin/${tool#@}") ;;
    pcp:*) cmd=("$pcpbin/$tool") ;;
    ours:*) cmd=("$build/tools/$tool") ;;
    lib:*) cmd=("$run" "$pcpbin/$tool") ;;
  esac
  local -a e=() words=()
  local input= w
  [ "$envs" = - ] || read -r -a words <<<"$envs"
  for w in "${words[@]}"; do
    case "$w" in STDIN=*) input=${w#STDIN=} ;; *) e+=("$w") ;; esac
  done
  (cd "$work" && printf '%s\n' "$input" | env "${e[@]}" timeout 60 "${cmd[@]}" "$@" \
     >"out/$n.$side.out" 2>"out/$n.$side.raw"
   echo "exit $?" >>"out/$n.$side.out")
  # pmNotifyErr's time and process id vary from run to run
  sed -E 's/^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8}\] ([^(]*)\([0-9]+\)/[TIME] \1(PID)/' \
    "$work/out/$n.$side.raw" >"$work/out/$n.$side.err"
}

declare -A total same
n=0 failed=0
while IFS=$'\t' read -r group envs command; do
  case "$group" in '' | '#'*) continue ;; esac
  wanted "$group" || continue
  n=$((n + 1))
  envs=$(expand "$envs")
  command=$(expand "$command")
  read -r -a words <<<"$command"
  # @NAME programs run over the drop-in on our side: not in a sanitized build
  case "${words[0]}" in @*) [ "${#sides[@]}" -eq 3 ] || continue ;; esac
  for side in "${sides[@]}"; do run_side "$side" "$n" "$envs" "${words[@]}"; done
  total[$group]=$((${total[$group]:-0} + 1))
  verdict=same
  for side in "${sides[@]:1}"; do
    if ! cmp -s "$work/out/$n.pcp.out" "$work/out/$n.$side.out" ||
      ! cmp -s "$work/out/$n.pcp.err" "$work/out/$n.$side.err"; then
      verdict="DIFFERENT ($side)"
      diff "$work/out/$n.pcp.out" "$work/out/$n.$side.out" | head -10
      diff "$work/out/$n.pcp.err" "$work/out/$n.$side.err" | head -10
    fi
  done
  if [ "$verdict" = same ]; then
    same[$group]=$((${same[$group]:-0} + 1))
  else
    failed=$((failed + 1))
  fi
  echo "$verdict: [$group] ${envs} $command"
done <"$here/cases.txt"

for g in "${groups[@]}"; do
  echo "$g: ${same[$g]:-0}/${total[$g]:-0} identical (${sides[*]})"
done
[ "$failed" -eq 0 ] && [ "$n" -gt 0 ]
