#!/bin/sh
# Drives tests/oracle/pmdacache.c: runs the script below against PCP's
# libpcp_pmda with PCP_VAR_DIR in a scratch directory and writes
# $2/pmdacache.tsv. Usage: pmdacache.sh <binary> <outdir>
#
# Commands (INDOM is D.S or "null"; NAME is the rest of the line, with the
# escapes \\ \t \n \xHH; KEY is hex bytes, "-" for none, "!" for a key
# pointer with length 0, "~" for length -1; PRIV is the private pointer as a
# number):
#   store INDOM FLAGS PRIV NAME          pmdaCacheStore
#   storekey INDOM FLAGS PRIV KEY NAME   pmdaCacheStoreKey
#   lookup INDOM INST                    pmdaCacheLookup: sts name priv
#   lookupname INDOM NAME                pmdaCacheLookupName: sts inst priv
#   lookupkey INDOM KEY NAME             pmdaCacheLookupKey: sts name inst priv
#   op INDOM OP                          pmdaCacheOp
#   walk INDOM                           WALK_REWIND then WALK_NEXT to -1
#   purge INDOM RECENT                   pmdaCachePurge
#   purgecb INDOM RECENT                 pmdaCachePurgeCallback: sts cb=priv...
#   resize INDOM MAX                     pmdaCacheResize
#   dump INDOM HASH                      the PMDA_CACHE_DUMP(_ALL) text
#   file INDOM                           the persistence file (stamps of this run as NOW)
#   writefile INDOM TEXT                 replaces the persistence file
#   rmfile INDOM                         removes it
#   restart                              a new process: caches empty, files kept
set -eu
bin=$1
outdir=$2
vd=$(mktemp -d)
trap 'rm -rf "$vd"' EXIT
mkdir -p "$vd/config"
script() {
cat <<'EOF'
# --- store, states, lookups by name and id; flag and op errors
store 29.1 2 0 red
store 29.1 2 16 green
store 29.1 2 0 blue
store 29.1 2 0 green
store 29.1 3 0 green
lookup 29.1 1
lookupname 29.1 green
lookupname 29.1 purple
lookup 29.1 7
lookup 29.1 -1
store 29.1 3 0 purple
store 29.1 4 0 purple
store 29.1 7 0 purple
store 29.1 7 0 red
store 29.1 0 0 red
op 29.1 10
op 29.1 11
op 29.1 12
walk 29.1
store 29.1 2 32 green
lookup 29.1 1
store 29.1 3 48 green
lookup 29.1 1
walk 29.1
op 29.1 8
walk 29.1
op 29.1 9
walk 29.1
op 29.1 9
op 29.1 11
op 29.1 8
op 29.1 99
op 29.1 0
op 29.1 2
op 29.1 3
op 29.1 5
op 29.1 19
op 29.1 16
op 29.2 16
lookup 29.2 0
op 29.2 16
op 29.2 10
dump 29.1 0
dump 29.1 1
dump 29.99 0
store null 2 0 x
storekey null 2 0 - x
lookup null 0
lookupname null x
lookupkey null - x
op null 10
op null 16
purge null 0
resize null 5
# --- culling: numbering, SIZE counts culled entries until REORG
store 29.3 2 0 a
store 29.3 2 0 b
store 29.3 2 0 c
store 29.3 2 0 d
store 29.3 4 0 b
store 29.3 4 0 b
lookupname 29.3 b
lookup 29.3 1
op 29.3 10
op 29.3 11
op 29.3 12
walk 29.3
dump 29.3 1
store 29.3 2 0 e
store 29.3 2 0 b
walk 29.3
op 29.3 17
op 29.3 10
dump 29.3 1
store 29.3 4 0 d
store 29.3 2 0 f
walk 29.3
op 29.3 4
op 29.3 4
op 29.3 10
op 29.3 11
walk 29.3
store 29.3 2 0 g
op 29.3 17
op 29.3 10
store 29.3 2 0 h
lookup 29.3 8
dump 29.3 0
# --- REUSE: lowest free id; culled ids are reused only after REORG
store 29.4 2 0 a
store 29.4 2 0 b
store 29.4 2 0 c
store 29.4 2 0 d
store 29.4 4 0 b
op 29.4 13
store 29.4 2 0 x
op 29.4 17
store 29.4 2 0 y
store 29.4 2 0 z
store 29.4 4 0 a
op 29.4 17
store 29.4 2 0 w
walk 29.4
dump 29.4 0
op 29.4 13
# --- the INSTANCE NAME MATCHING table
store 29.5 2 0 foodle
lookupname 29.5 foo
store 29.5 2 0 foo
lookupname 29.5 foodle
lookupname 29.5 foo
store 29.5 2 0 foo bar
lookupname 29.5 foo
lookupname 29.5 foo bar
lookupname 29.5 foo blah
store 29.5 2 0 foo blah
store 29.5 3 0 foo blah
store 29.5 4 0 foo blah
store 29.5 2 0 fox trot
lookupname 29.5 fox
lookupname 29.5 fox trot
lookupname 29.5 fox blah
lookupname 29.5 fox trot extra
store 29.5 2 0 fox
store 29.5 2 0 fox trot
store 29.5 2 0 fox hound
store 29.5 4 0 fox hound
store 29.5 4 0 fox
store 29.5 2 0 fox hound
lookupname 29.5 fox
lookupname 29.5 fox trot
lookupname 29.5 fox  two spaces
store 29.5 2 0 fox  two spaces
store 29.5 2 0  leading space
lookupname 29.5 
store 29.5 2 0 
lookupname 29.5 
lookupname 29.5  leading space
lookupname 29.5  other
store 29.5 2 0 tab\there
lookupname 29.5 tab
lookupname 29.5 tab\there
store 29.5 2 0 caf\xc3\xa9 latte
lookupname 29.5 caf\xc3\xa9
dump 29.5 1
walk 29.5
# --- STRINGS caches match whole strings
op 29.6 7
store 29.6 2 0 foo bar
store 29.6 2 0 foo
lookupname 29.6 foo
lookupname 29.6 foo bar
lookupname 29.6 foo blah
store 29.6 2 0 foo blah
store 29.6 2 0 foo bar
dump 29.6 1
op 29.6 7
store 29.7 2 0 first
op 29.7 7
op 29.7 7
store 29.7 4 0 first
op 29.7 7
op 29.7 17
op 29.7 7
# --- keys: hashed ids, collisions of hints, names, keylen < 1
storekey 29.8 2 0 - k1
storekey 29.8 2 0 - k2
storekey 29.8 2 0 6b31 other
storekey 29.8 2 0 - k1
storekey 29.8 2 0 6b31 k1
storekey 29.8 2 0 ! k3
storekey 29.8 2 0 ~ k4
storekey 29.8 2 0 00000001 one
storekey 29.8 2 0 01000000 onele
storekey 29.8 2 0 80ff0102 high bytes
storekey 29.8 2 0 ff high byte
storekey 29.8 2 0 000102030405060708090a0b0c0d0e0f101112131415161718191a1b long key
storekey 29.8 2 0 0102030405060708090a0b0c twelve
storekey 29.8 2 0 0102030405060708090a0b eleven
storekey 29.8 2 0 0102030405060708090a0b0c0d thirteen
storekey 29.8 2 0 0001 k1
storekey 29.8 2 0 - /dev/sda
storekey 29.8 2 0 - cpu0
storekey 29.8 2 0 - cpu1
storekey 29.8 2 0 - \xe2\x82\xac euro
storekey 29.8 2 0 0001 samekey
storekey 29.8 2 0 0002 samekey2
storekey 29.8 2 0 0002 samekey3
lookupkey 29.8 - k1
lookupkey 29.8 6b31 ignored
lookupkey 29.8 0002 x
lookupkey 29.8 0003 x
lookupkey 29.8 ! k2
lookupkey 29.8 ~ k2
lookupkey 29.8 - nosuch
lookupkey 29.8 80ff0102 
lookupname 29.8 k1
storekey 29.8 3 0 6b31 k1
lookupkey 29.8 - k1
storekey 29.8 4 0 ffff k1
lookupkey 29.8 - k1
storekey 29.8 2 0 - k1
store 29.8 2 0 plain
store 29.8 2 0 k2
dump 29.8 1
op 29.8 13
# hints collide on purpose: the same key under two names, names under two keys
storekey 29.9 2 0 aabbccdd alpha
storekey 29.9 2 0 aabbccdd beta
storekey 29.9 2 0 11223344 alpha
storekey 29.9 2 0 11223344 alpha
storekey 29.9 2 0 11223344 gamma
store 29.9 2 0 delta
store 29.9 2 0 epsilon
storekey 29.9 2 0 - delta
dump 29.9 1
# a maximum below the hashed id does not bound StoreKey
resize 29.10 1000
storekey 29.10 2 0 - k1
store 29.10 2 0 plain
dump 29.10 1
# --- resize: maximum identifier, wrap to the lowest free id, give up
resize 29.11 -1
resize 29.11 3
store 29.11 2 0 a
store 29.11 2 0 b
store 29.11 2 0 c
store 29.11 2 0 d
store 29.11 2 0 e
store 29.11 4 0 b
store 29.11 2 0 f
op 29.11 17
store 29.11 2 0 f
store 29.11 2 0 g
resize 29.11 2
resize 29.11 3
resize 29.11 0
dump 29.11 0
resize 29.12 0
store 29.12 2 0 only
store 29.12 2 0 more
resize 29.12 5
store 29.12 2 0 more
# --- persistence: SAVE, SYNC, LOAD, file format
op 29.13 1
op 29.13 6
op 29.13 18
store 29.13 2 0 disk0
store 29.13 2 0 disk1
storekey 29.13 2 0 - keyed
store 29.13 2 0 spaced name here
op 29.13 6
file 29.13
op 29.13 6
op 29.13 18
store 29.13 2 0 disk0
op 29.13 6
op 29.13 18
op 29.13 18
store 29.13 3 0 disk1
op 29.13 18
resize 29.13 2000000000
op 29.13 6
op 29.13 18
file 29.13
store 29.13 4 0 disk1
op 29.13 18
file 29.13
purge 29.13 -10
op 29.13 6
file 29.13
op 29.13 10
store 29.14 2 0 a
store 29.14 2 0 b
op 29.14 13
op 29.14 6
file 29.14
op 29.15 7
store 29.15 2 0 string one
op 29.15 6
file 29.15
store 29.17 2 0 eth0
store 29.17 2 0 eth1
store 29.17 2 0 lo
store 29.17 2 0 wlan0
store 29.17 4 0 eth1
storekey 29.17 2 0 0a000001 tun0
store 29.17 3 0 lo
op 29.17 6
file 29.17
restart
op 29.17 1
op 29.17 10
op 29.17 11
walk 29.17
lookupname 29.17 lo
lookupname 29.17 eth1
lookupkey 29.17 0a000001 x
store 29.17 2 0 eth1
store 29.17 2 0 wlan0
store 29.17 2 0 eth0
walk 29.17
op 29.17 6
op 29.17 18
file 29.17
op 29.13 10
op 29.13 1
op 29.13 10
op 29.13 11
op 29.13 12
lookup 29.13 0
lookupname 29.13 spaced
lookupkey 29.13 - keyed
dump 29.13 1
store 29.13 2 0 disk2
op 29.13 6
file 29.13
op 29.13 1
op 29.13 10
op 29.14 1
store 29.14 2 0 c
dump 29.14 0
op 29.15 1
lookupname 29.15 string
lookupname 29.15 string one
op 29.16 1
restart
# --- LOAD merges with what is in the cache already
store 29.13 2 0 disk1
store 29.13 2 0 newcomer
store 29.13 2 0 disk0
op 29.13 1
dump 29.13 0
op 29.13 6
file 29.13
# --- LOAD of hand-written files: versions, keys, oddities, corruption
writefile 29.20 1 0\n5 100 five\n7 200 seven\n
op 29.20 1
store 29.20 2 0 eight
dump 29.20 0
op 29.20 6
op 29.20 18
file 29.20
writefile 29.21 2 1 50\n3 1000 [0a0b] keyed three\n1 1000 one\n  2   1000    two  with  gaps  \n
op 29.21 1
dump 29.21 0
store 29.21 2 0 next
walk 29.21
writefile 29.22 
op 29.22 1
writefile 29.23 3 0 5\n
op 29.23 1
writefile 29.24 0 0 5\n
op 29.24 1
writefile 29.25 x\n
op 29.25 1
writefile 29.26 2 2 5\n
op 29.26 1
store 29.26 2 0 after
dump 29.26 0
writefile 29.27 2 -1 5\n
op 29.27 1
writefile 29.28 2 0 -5\n
op 29.28 1
writefile 29.29 2 1\n
op 29.29 1
dump 29.29 0
writefile 29.30 1 1\n9 0 nine\n
op 29.30 1
store 29.30 2 0 ten
writefile 29.31 2 0 2147483647\n1 1 one\n\n2 2 two\n
op 29.31 1
dump 29.31 0
writefile 29.32 2 0 2147483647\n1 1 one\n2\n
op 29.32 1
writefile 29.33 2 0 2147483647\n1 1\n
op 29.33 1
writefile 29.34 2 0 2147483647\n1 1 [abc] odd key\n2 2 [ab]tight\n3 3 [] empty key\n4 4 [ab
op 29.34 1
dump 29.34 0
writefile 29.35 2 0 2147483647\nabc\n
op 29.35 1
dump 29.35 0
writefile 29.36 2 0 2147483647\n-5 0 minus\n
op 29.36 1
dump 29.36 0
writefile 29.37 2 0 2147483647\n1 1 one\n1 1 uno\n2 2 one\n3 3 three\n3 3 three\n
op 29.37 1
dump 29.37 0
writefile 29.38 2 0 2147483647\n1 5 a b\n2 5 a c\n
op 29.38 1
dump 29.38 0
writefile 29.39 2 1 2147483647\r\n1 5 cr\r\n
op 29.39 1
dump 29.39 0
writefile 29.40 2 0 99\n100 5 above max\n
op 29.40 1
store 29.40 2 0 next
resize 29.40 50
dump 29.40 0
writefile 29.41 2 0 2147483647\n4294967297 5 wraps\n
op 29.41 1
dump 29.41 0
writefile 29.42 2 0 2147483647\n1 1 nul\x00after\n
op 29.42 1
dump 29.42 0
writefile 29.45 2 0 2147483647\n1 1 [a] one digit\n
op 29.45 1
dump 29.45 0
writefile 29.46 2 0 2147483647 trailing words\n1 1 one
op 29.46 1
dump 29.46 0
writefile 29.47 2 0 2147483647\n1 99999999999 big stamp\n
op 29.47 1
op 29.47 6
op 29.47 18
file 29.47
# --- purge by age
writefile 29.50 2 0 2147483647\n1 1000 ancient\n2 1600000000 old\n3 0 unstamped\n
op 29.50 1
store 29.50 2 0 fresh
store 29.50 2 0 ancient
purge 29.50 1000000000
dump 29.50 0
op 29.50 18
purge 29.50 100
purge 29.50 -100
purge 29.50 -100
op 29.50 10
dump 29.50 0
op 29.50 6
file 29.50
writefile 29.51 2 0 2147483647\n1 1000 one\n2 1000 two\n3 1000 three\n
op 29.51 1
store 29.51 2 16 one
store 29.51 3 0 one
store 29.51 2 32 two
store 29.51 4 0 two
store 29.51 2 48 four
purgecb 29.51 100
purgecb 29.51 100
op 29.51 18
purgecb 29.51 -100
purgecb 29.51 -100
dump 29.51 0
store 29.52 2 64 culled with data
op 29.52 18
store 29.52 4 0 culled with data
purgecb 29.52 -100
purgecb 29.52 -100
store 29.52 2 80 kept
op 29.52 18
store 29.52 3 0 kept
purgecb 29.52 -100
purgecb 29.52 -100
# --- walks: ascending order, active only, interleaved with changes
store 29.60 2 0 a
store 29.60 2 0 b
store 29.60 2 0 c
store 29.60 2 0 d
op 29.60 14
op 29.60 15
store 29.60 3 0 b
op 29.60 15
store 29.60 2 0 e
op 29.60 15
op 29.60 15
op 29.60 15
op 29.60 15
op 29.60 14
op 29.60 15
lookupkey 29.60 - c
op 29.60 15
op 29.60 15
op 29.60 15
# --- growth of the hash tables
store 29.70 2 0 i0
store 29.70 2 0 i1
store 29.70 2 0 i2
store 29.70 2 0 i3
store 29.70 2 0 i4
store 29.70 2 0 i5
store 29.70 2 0 i6
store 29.70 2 0 i7
store 29.70 2 0 i8
store 29.70 2 0 i9
store 29.70 2 0 i10
store 29.70 2 0 i11
store 29.70 2 0 i12
store 29.70 2 0 i13
store 29.70 2 0 i14
store 29.70 2 0 i15
store 29.70 2 0 i16
store 29.70 2 0 i17
store 29.70 2 0 i18
store 29.70 2 0 i19
store 29.70 2 0 i20
store 29.70 2 0 i21
store 29.70 2 0 i22
store 29.70 2 0 i23
store 29.70 2 0 i24
store 29.70 2 0 i25
store 29.70 2 0 i26
store 29.70 2 0 i27
store 29.70 2 0 i28
store 29.70 2 0 i29
store 29.70 2 0 i30
store 29.70 2 0 i31
store 29.70 3 0 i3
store 29.70 4 0 i4
store 29.70 3 0 i20
store 29.70 2 0 i32
store 29.70 2 0 i33
store 29.70 2 0 i34
store 29.70 2 0 i35
store 29.70 2 0 i36
store 29.70 2 0 i37
store 29.70 2 0 i38
store 29.70 2 0 i39
store 29.70 2 0 i40
store 29.70 2 0 i41
store 29.70 2 0 i42
store 29.70 2 0 i43
store 29.70 2 0 i44
store 29.70 2 0 i45
store 29.70 2 0 i46
store 29.70 2 0 i47
store 29.70 2 0 i48
store 29.70 2 0 i49
store 29.70 2 0 i50
store 29.70 2 0 i51
store 29.70 2 0 i52
store 29.70 2 0 i53
store 29.70 2 0 i54
store 29.70 2 0 i55
store 29.70 2 0 i56
store 29.70 2 0 i57
store 29.70 2 0 i58
store 29.70 2 0 i59
store 29.70 2 0 i60
store 29.70 2 0 i61
store 29.70 2 0 i62
store 29.70 2 0 i63
store 29.70 2 0 i64
store 29.70 2 0 i65
dump 29.70 1
op 29.70 17
dump 29.70 1
op 29.70 10
EOF
# a record line longer than the 1023 bytes PCP reads at a time
long=$(printf 'a%.0s' $(seq 1 1100))
printf 'writefile 29.43 2 0 2147483647\\n1 1 %s 77 tail\\n\n' "$long"
echo "op 29.43 1"
echo "dump 29.43 0"
}
script | PCP_VAR_DIR=$vd "$bin" > "$outdir/pmdacache.tsv" 2>/dev/null
