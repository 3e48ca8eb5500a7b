/* Prints the exact bytes PCP 6.0.3's libpcp sends for a set of PDUs, one
 * "name<TAB>hex" line each: every request a client sends, and the replies
 * pmcd sends. The inputs here are mirrored in tests/unit/pdu_oracle_test.cc,
 * which checks that our encoders give the same bytes and our decoders give
 * back the inputs.
 *
 * libpcp.h (the internal header with the __pmSend* prototypes) is not
 * packaged; the sample PMDA ships a copy. */
#include <pcp/pmapi.h>
#include "/usr/lib/pcp/pmdas/sample/libpcp.h"
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out_fd;

/* Prints what was written to out_fd since the last call, then rewinds. */
static void emit(const char *name) {
  unsigned char buf[8192];
  off_t n = lseek(out_fd, 0, SEEK_CUR);
  lseek(out_fd, 0, SEEK_SET);
  if (n > (off_t)sizeof buf || read(out_fd, buf, (size_t)n) != n) {
    fprintf(stderr, "emit %s: bad size\n", name);
    exit(1);
  }
  printf("%s\t", name);
  for (off_t i = 0; i < n; i++) printf("%02x", buf[i]);
  printf("\n");
  lseek(out_fd, 0, SEEK_SET);
  if (ftruncate(out_fd, 0) != 0) exit(1);
}

static void creds(void) {
  __pmVersionCred v;
  memset(&v, 0, sizeof v);
  v.c_type = CVERSION;
  v.c_version = PDU_VERSION;
  v.c_flags = 0;
  __pmSendCreds(out_fd, 3161, 1, (__pmCred *)&v);
  emit("creds_plain");
  v.c_flags = PDU_FLAG_CREDS_REQD | PDU_FLAG_CONTAINER;
  __pmSendCreds(out_fd, 77, 1, (__pmCred *)&v);
  emit("creds_flags");
}

static void profile(void) {
  pmProfile p = {PM_PROFILE_INCLUDE, 0, NULL};
  __pmSendProfile(out_fd, 0, 0, &p);
  emit("profile_empty");
  int a[] = {0, 2};
  int b[] = {100};
  pmInDomProfile ip[] = {{pmInDom_build(29, 1), PM_PROFILE_EXCLUDE, 2, a},
                         {pmInDom_build(29, 2), PM_PROFILE_INCLUDE, 1, b}};
  pmProfile q = {PM_PROFILE_INCLUDE, 2, ip};
  __pmSendProfile(out_fd, 3, 3, &q);
  emit("profile_two");
}

static void fetches(void) {
  pmID ids[] = {pmID_build(29, 0, 10), pmID_build(29, 0, 5), pmID_build(2, 3, 4)};
  __pmSendFetch(out_fd, 0, 0, 1, ids);
  emit("fetch_one");
  __pmSendHighResFetch(out_fd, 5, 5, 3, ids);
  emit("highres_fetch_three");
  __pmSendDescReq(out_fd, 0, pmID_build(29, 0, 10));
  emit("desc_req");
  __pmSendIDList(out_fd, 0, 3, ids, -1);
  emit("desc_ids");
  __pmSendIDList(out_fd, 0, 1, ids, 0);
  emit("pmns_ids_req");
  __pmSendIDList(out_fd, 0, 2, ids, 2);
  emit("pmns_ids_reply");
}

static void instance_reqs(void) {
  __pmSendInstanceReq(out_fd, 0, pmInDom_build(29, 1), PM_IN_NULL, NULL);
  emit("instance_req_all");
  __pmSendInstanceReq(out_fd, 0, pmInDom_build(29, 1), 1, NULL);
  emit("instance_req_inst");
  __pmSendInstanceReq(out_fd, 0, pmInDom_build(29, 1), PM_IN_NULL, "green");
  emit("instance_req_name");
  __pmSendInstanceReq(out_fd, 0, pmInDom_build(29, 2), PM_IN_NULL, "bin-");
  emit("instance_req_name4");
}

static void text_and_label_reqs(void) {
  __pmSendTextReq(out_fd, 0, (int)pmID_build(29, 0, 6), PM_TEXT_PMID | PM_TEXT_ONELINE);
  emit("text_req_pmid_oneline");
  __pmSendTextReq(out_fd, 0, (int)pmInDom_build(29, 1), PM_TEXT_INDOM | PM_TEXT_HELP);
  emit("text_req_indom_help");
  __pmSendLabelReq(out_fd, 0, 0, PM_LABEL_CONTEXT);
  emit("label_req_context");
  __pmSendLabelReq(out_fd, 0, 29, PM_LABEL_DOMAIN);
  emit("label_req_domain");
  __pmSendLabelReq(out_fd, 0, (int)pmInDom_build(29, 1), PM_LABEL_INDOM);
  emit("label_req_indom");
  __pmSendLabelReq(out_fd, 0, (int)pmID_build(29, 0, 6), PM_LABEL_CLUSTER);
  emit("label_req_cluster");
  __pmSendLabelReq(out_fd, 0, (int)pmID_build(29, 0, 6), PM_LABEL_ITEM);
  emit("label_req_item");
  __pmSendLabelReq(out_fd, 0, (int)pmInDom_build(29, 1), PM_LABEL_INSTANCES);
  emit("label_req_instances");
}

static void pmns_reqs(void) {
  const char *names[] = {"sample.long.one", "sample.colour", "a.b.cd", "x"};
  __pmSendNameList(out_fd, 0, 4, names, NULL);
  emit("names_req");
  int status[] = {PMNS_LEAF_STATUS, PMNS_NONLEAF_STATUS, PMNS_LEAF_STATUS, PMNS_LEAF_STATUS};
  __pmSendNameList(out_fd, 0, 4, names, status);
  emit("names_status");
  __pmSendChildReq(out_fd, 0, "sample", 1);
  emit("child_status");
  __pmSendChildReq(out_fd, 0, "", 0);
  emit("child_root");
  __pmSendTraversePMNSReq(out_fd, 0, "sample.long");
  emit("traverse");
  __pmSendTraversePMNSReq(out_fd, 0, "");
  emit("traverse_root");
  __pmSendAttr(out_fd, 0, PCP_ATTR_CONTAINER, "box", 3);
  emit("attr_container");
}

/* A result with an in-situ value, a string, a double, an error and an empty
 * set, sent as RESULT (the pmStore request) and as HIGHRES_RESULT. */
static void results(void) {
  __pmResult *r = calloc(1, sizeof(__pmResult) + 4 * sizeof(pmValueSet *));
  r->timestamp.sec = 1795312055;
  r->timestamp.nsec = 101394000;
  r->numpmid = 5;
  pmValueSet *a = calloc(1, sizeof(pmValueSet));
  a->pmid = pmID_build(29, 0, 14);
  a->numval = 1;
  a->valfmt = PM_VAL_INSITU;
  a->vlist[0].inst = PM_IN_NULL;
  a->vlist[0].value.lval = 13;
  pmValueSet *s = calloc(1, sizeof(pmValueSet) + sizeof(pmValue));
  s->pmid = pmID_build(29, 0, 31);
  s->numval = 2;
  s->valfmt = PM_VAL_DPTR;
  const char *strs[] = {"hullo world!", "ab"};
  for (int i = 0; i < 2; i++) {
    size_t len = strlen(strs[i]) + 1;
    pmValueBlock *vb = calloc(1, PM_VAL_HDR_SIZE + len + 4);
    vb->vtype = PM_TYPE_STRING;
    vb->vlen = PM_VAL_HDR_SIZE + len;
    memcpy(vb->vbuf, strs[i], len);
    s->vlist[i].inst = 7 + i;
    s->vlist[i].value.pval = vb;
  }
  pmValueSet *d = calloc(1, sizeof(pmValueSet));
  d->pmid = pmID_build(29, 0, 28);
  d->numval = 1;
  d->valfmt = PM_VAL_DPTR;
  pmValueBlock *db = calloc(1, PM_VAL_HDR_SIZE + 8);
  double dv = 1e6;
  db->vtype = PM_TYPE_DOUBLE;
  db->vlen = PM_VAL_HDR_SIZE + 8;
  memcpy(db->vbuf, &dv, 8);
  d->vlist[0].inst = PM_IN_NULL;
  d->vlist[0].value.pval = db;
  pmValueSet *e = calloc(1, sizeof(pmValueSet));
  e->pmid = pmID_build(29, 0, 55);
  e->numval = PM_ERR_APPVERSION;
  pmValueSet *z = calloc(1, sizeof(pmValueSet));
  z->pmid = pmID_build(29, 0, 138);
  z->numval = 0;
  r->vset[0] = a;
  r->vset[1] = s;
  r->vset[2] = d;
  r->vset[3] = e;
  r->vset[4] = z;
  __pmSendResult(out_fd, 0, r);
  emit("result_store");
  __pmSendHighResResult(out_fd, 0, r);
  emit("highres_result");
}

static void replies(void) {
  __pmSendError(out_fd, 0, PM_ERR_NAME);
  emit("error_name");
  __pmSendError(out_fd, 0, 9);
  emit("error_state_change");
  __pmSendXtendError(out_fd, 0, 0, (int)htonl(0x02010e44));
  emit("handshake_ok");
  __pmSendXtendError(out_fd, 0, PM_ERR_PERMISSION, (int)htonl(0x02010e4c));
  emit("handshake_refused");
  pmDesc desc = {pmID_build(29, 0, 6), PM_TYPE_U32, pmInDom_build(29, 2), PM_SEM_COUNTER,
                 {.dimSpace = 1, .dimTime = -1, .scaleSpace = PM_SPACE_KBYTE,
                  .scaleTime = PM_TIME_SEC}};
  __pmSendDesc(out_fd, 0, &desc);
  emit("desc");
  pmDesc descs[2] = {desc, desc};
  descs[1].pmid = PM_ID_NULL;
  descs[1].type = PM_TYPE_STRING;
  descs[1].indom = PM_INDOM_NULL;
  descs[1].sem = PM_SEM_DISCRETE;
  memset(&descs[1].units, 0, sizeof descs[1].units);
  descs[1].units.dimCount = 1;
  descs[1].units.scaleCount = -3;
  __pmSendDescs(out_fd, 0, 2, descs);
  emit("descs");
  int insts[] = {0, 1, 2, 100};
  char *names[] = {"red", "green", "blue", "bin-"};
  pmInResult in = {pmInDom_build(29, 1), 4, insts, names};
  __pmSendInstance(out_fd, 0, &in);
  emit("instance");
  pmInResult none = {pmInDom_build(29, 1), 0, NULL, NULL};
  __pmSendInstance(out_fd, 0, &none);
  emit("instance_empty");
  __pmSendText(out_fd, 0, (int)pmID_build(29, 0, 6), "Several constant instances");
  emit("text_oneline");
  __pmSendText(out_fd, 0, (int)htonl(pmID_build(29, 0, 6)), "line one\nline two\n");
  emit("text_help");
  __pmSendText(out_fd, 0, 0, "");
  emit("text_empty");
  const char *names2[] = {"long", "colour"};
  int status[] = {PMNS_NONLEAF_STATUS, PMNS_LEAF_STATUS};
  __pmSendNameList(out_fd, 0, 2, names2, status);
  emit("names_child_reply");
}

static void labels(void) {
  char j1[] = "{\"agent\":\"sample\",\"role\":\"testing\"}";
  pmLabel l1[] = {{.name = 2, .namelen = 5, .flags = PM_LABEL_DOMAIN, .value = 8, .valuelen = 8},
                  {.name = 18, .namelen = 4, .flags = PM_LABEL_DOMAIN, .value = 24,
                   .valuelen = 9}};
  char j2[] = "{\"cluster\":\"zero\"}";
  pmLabel l2[] = {{.name = 2, .namelen = 7, .flags = PM_LABEL_CLUSTER | PM_LABEL_OPTIONAL,
                   .value = 11, .valuelen = 6}};
  pmLabelSet sets[3];
  memset(sets, 0, sizeof sets);
  sets[0].inst = PM_IN_NULL;
  sets[0].nlabels = 2;
  sets[0].json = j1;
  sets[0].jsonlen = (unsigned)strlen(j1);
  sets[0].labels = l1;
  sets[1].inst = 1;
  sets[1].nlabels = 1;
  sets[1].json = j2;
  sets[1].jsonlen = (unsigned)strlen(j2);
  sets[1].labels = l2;
  sets[2].inst = 2;
  sets[2].nlabels = 0;
  __pmSendLabel(out_fd, 0, 29, PM_LABEL_DOMAIN, sets, 3);
  emit("label_three_sets");
  __pmSendLabel(out_fd, 0, (int)pmID_build(29, 0, 6), PM_LABEL_ITEM, NULL, 0);
  emit("label_none");
}

int main(void) {
  char path[] = "/tmp/pdu-oracle-XXXXXX";
  out_fd = mkstemp(path);
  if (out_fd < 0) return 1;
  unlink(path);
  creds();
  profile();
  fetches();
  instance_reqs();
  text_and_label_reqs();
  pmns_reqs();
  results();
  replies();
  labels();
  return 0;
}
