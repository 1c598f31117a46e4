#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Write COUNT random exports(5) files into DIR for the differential test:
# lines built from the pieces exportfs reads differently from a naive
# reader (quotes, escapes, continuations, \r, comments, default options,
# two defaults in a row, empty words, long words, every option and bad
# values of each, -1 at either end of a squash range).  Deterministic for a given SEED.  No NUL bytes: we
# reject them on purpose (see btrfsino.h).
#
# Usage: gen.py DIR COUNT SEED
import os
import random
import sys

OPTIONS = [
    "ro", "rw", "sync", "async", "secure", "insecure", "wdelay", "no_wdelay",
    "hide", "nohide", "crossmnt", "nocrossmnt", "subtree_check",
    "no_subtree_check", "root_squash", "no_root_squash", "all_squash",
    "no_all_squash", "auth_nlm", "no_auth_nlm", "secure_locks",
    "insecure_locks", "acl", "no_acl", "pnfs", "no_pnfs", "nordirplus",
    "security_label", "mountpoint", "mp", "mountpoint=/m", "mp=/m", "mp=",
    "refer=/a@h", "replicas=/b@h1+h2", "refer=",
    "fsid=0", "fsid=1", "fsid=-1", "fsid=root", "fsid=0x1f", "fsid=010",
    "fsid=+7", "fsid=4294967296", "fsid=2f3a4b5c-6d7e-8f90-a1b2-c3d4e5f60718",
    "fsid=2f3a4b5c6d7e8f90a1b2c3d4e5f60718z", "anonuid=1000", "anonuid=-2",
    "anonuid=+3", "anongid=65534", "anonuid=99999999999999999999",
    "squash_uids=0-15", "squash_uids=1", "squash_uids=", "squash_gids=5-",
    "squash_gids=--5", "sec=sys", "sec=krb5:krb5i:krb5p", "sec=unix:sys",
    "sec=null:none:sys", "sec=krb5p:sys",
    # atoi() wraps these ends to -2 and INT_MIN, which parsesquash() keeps.
    "squash_uids=5-4294967294", "squash_gids=1-2147483648",
    "squash_uids=4294967294-5",
]
# What exportfs refuses: each stops the file.
BAD_OPTIONS = [
    "fsid=08", "fsid=0x", "fsid=", "fsid=abc", "fsid=2f3a4b5c6d7e8f90a1b2c3d4e5f6071z", "fsid", "anonuid=",
    "anonuid=x", "anonuid=1x", "anongid=", "anongid=0x10", "anonuid",
    "anongid", "squash_uids=-1", "squash_gids=4294967295", "squash_uids=1,2",
    "squash_uids=a", "squash_gids=1-2-3", "sec=", "sec=sys:", "sec=bogus",
    "sec=krb5:foo", "sec", "no_subtree", "check", "mapall=root",
    "reexport=auto-fsidnum", "xprtsec=tls", "RO", "rw ", "", "fsloc=stub",
    # -1 (atoi() wraps 4294967295 and 2^33-1 to it) at the end of a range,
    # at both ends, and first in a range: parsesquash() checks each.
    "squash_uids=5-4294967295", "squash_gids=1-4294967295",
    "squash_uids=5--1", "squash_gids=0-8589934591",
    "squash_uids=4294967295-4294967295", "squash_gids=-1-5",
]
HOSTS = ["*", "host", "10.0.0.0/8", "@netgroup", "*.example.com",
         "[::1]", "gss/krb5", ""] * 4 + ["-sync", "h)x", "a(b"]
PATHS = ["/srv/a", "/srv/b", "/", "/srv/nfs4/home", "/srv/with space",
         "relative", "-dash", "/srv/a#hash", "/srv/\\040x", "/srv/\\134101",
         "/srv/\\400", "/srv/\\12", "/tmp",
         # A backslash before 3 (issue 36): \3b stays, \340 is a byte, \\340
         # a backslash and that byte, \1343 a backslash and 3.
         "/srv/a\\3b", "/srv/\\340", "/srv/\\\\340", "/srv/\\1343",
         "/srv/\\13434x"]
SEPS = [" "] * 30 + ["\t", "  ", "\\\n", "\\\n  ", " #c ", " \r", "\r", "\v",
                     "\f", "\\\r\n"]


def quote_some(rng, word):
    if not word or rng.random() > 0.15:
        return word
    i = rng.randrange(len(word) + 1)
    j = rng.randrange(i, len(word) + 1)
    return word[:i] + '"' + word[i:j] + '"' + word[j:]


def options(rng):
    k = rng.choice([0, 1, 1, 2, 3, 4])
    opts = [rng.choice(BAD_OPTIONS if rng.random() < 0.03 else OPTIONS)
            for _ in range(k)]
    text = ",".join(opts)
    r = rng.random()
    if r < 0.05:
        text += ","
    elif r < 0.07:
        text = " " + text
    elif r < 0.09:
        text = text.replace(",", ", ")
    elif r < 0.10:
        text = text.replace(",", ",,")
    return text


def client(rng):
    r = rng.random()
    if r < 0.15:
        return "-" + options(rng)
    if r < 0.2:
        return "(" + options(rng) + ")"
    host = rng.choice(HOSTS)
    if r < 0.35:
        return host
    if r < 0.36:
        return host + "(" + options(rng)
    if r < 0.37:
        return host + "(" + options(rng) + ")x"
    if r < 0.38:
        return '""'
    if r < 0.385:
        return "h" * rng.choice([510, 511, 512, 600])
    return host + "(" + options(rng) + ")"


def line(rng):
    r = rng.random()
    if r < 0.05:
        return "# comment " + rng.choice(["", "/srv/x h(rw)", "\\"])
    if r < 0.08:
        return rng.choice(["", "", "", "  ", "\t", "\r", " \r", '""'])
    path = rng.choice(PATHS)
    if rng.random() < 0.01:
        path = "/" + "p" * rng.choice([1022, 1023, 1024, 1030])
    words = [quote_some(rng, path)]
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
        words.append(quote_some(rng, client(rng)))
    text = words[0]
    for w in words[1:]:
        text += rng.choice(SEPS) + w
    if rng.random() < 0.1:
        text += rng.choice([" ", "\t", " # trailing", " \\", "\r"])
    if rng.random() < 0.01:
        text += '"'
    return text


def main():
    out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    for n in range(count):
        lines = [line(rng) for _ in range(rng.randrange(1, 8))]
        end = rng.choice(["\n", "\n", "\r\n", ""])
        text = "\n".join(lines) + end
        with open(os.path.join(out, "gen-%05d.exports" % n), "wb") as f:
            f.write(text.encode("latin-1"))


main()
