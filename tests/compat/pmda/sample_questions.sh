# sample_questions: what the shipped-agent tests ask of PCP's sample agent
# (sourced by shipped_agents_test.sh and local_agents_test.sh). Uses $P,
# the directory of the tools, and $ctx, their context options.
#
# Every metric's descriptor, help text, labels and values, then stores and
# a few fetches in a row. The values that follow the clock, the process
# (its ID, its data size) or the random walks are masked: the metrics are
# listed in sample_varying.
sample_varying='sample.daemon_pid|sample.datasize|sample.dupnames.daemon_pid|sample.dupnames.pid_daemon|sample.dupnames.two.seconds|sample.seconds|sample.milliseconds|sample.sysinfo|sample.proc.time|sample.ulonglong.bin|sample.ulonglong.bin_ctr|sample.event.records|sample.event.highres_records|sample.event.no_indom_records|sample.drift|sample.step|sample.step_counter|sample.load|sample.updown.obs|sample.byte_ctr|sample.byte_rate|sample.kbyte_ctr|sample.kbyte_rate|sample.byte_rate_perhour|sample.string.bin|sample.rapid|sample.const_rate.value'

# In a local context the agent also counts the requests the tool itself
# makes of it (its PDU counters), and our tools ask in other batches than
# PCP's: $sample_extra_varying names those metrics there.
sample_extra_varying=${sample_extra_varying:-}

# Masks the values of the metrics named in sample_varying, in pminfo -f
# blocks (the name line, then value lines until a blank line).
sample_mask() {
  awk -v pat="^($sample_varying${sample_extra_varying:+|$sample_extra_varying})\$" '
    /^$/ { masking = 0 }
    $0 ~ pat { masking = 1; print; next }
    masking && /value/ { sub(/value .*/, "value N") }
    { print }'
}

sample_questions() {
  # shellcheck disable=SC2086
  "$P/pminfo" $ctx -dmtTl sample 2>&1
  # shellcheck disable=SC2086
  "$P/pminfo" $ctx -f sample 2>&1 | sample_mask
  # shellcheck disable=SC2086
  {
    "$P/pmstore" $ctx sample.write_me 42 2>&1
    "$P/pmstore" $ctx sample.ulong.write_me 7 2>&1
    "$P/pmstore" $ctx sample.string.write_me "a new string" 2>&1
    "$P/pmstore" $ctx sample.colour 1 2>&1 || true
    "$P/pmstore" $ctx sample.write_me "not a number" 2>&1 || true
    "$P/pminfo" $ctx -f sample.write_me sample.ulong.write_me sample.string.write_me 2>&1
    "$P/pmval" $ctx -s 3 -t 0.05 sample.bin 2>&1 | sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]+/TIME/'
    "$P/pmval" $ctx -s 2 -t 0.05 sample.colour 2>&1 | sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]+/TIME/'
    # one at a time: what goes to stderr then stays in its place
    for m in sample.noinst sample.needprofile sample.bad.unknown sample.bad.nosupp; do
      "$P/pminfo" $ctx -f $m 2>&1
    done
  }
}
