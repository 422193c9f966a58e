#!/bin/bash
# Seed 001: "[PATCH v2 0/8] Btrfs: use bio_clone_fast to clone our bio" (Liu Bo, merged for
# v4.13; /work/shared/seeds/001_b699ca1cde02695c.txt). The seed's script [1], as given (commented
# out: it needs root, two pmem partitions and btrfs):
#
#   M=/mnt/btrfs
#   D1=/dev/pmem0p1
#   D2=/dev/pmem0p2
#
#   umount $M
#   mkfs.btrfs -f $D1 $D2 >/dev/null || exit
#
#   mount $D1 $M -onodatasum || exit
#
#   xfs_io -f -c "falloc 0 2G" $M/foo
#
#   time xfs_io -d -c "pwrite -b 128K 0 2G" $M/foo
#
# Published (time of the last line): vanilla real 0m10.265s, user 0m0.005s, sys 0m9.164s;
# patched real 0m8.973s, user 0m0.006s, sys 0m7.804s.
#
# What the model runs: the same two xfs_io command lines on its own two-device btrfs (falloc is
# accepted and does nothing: the model's file is laid out already). BTRFS_DIO_CLONE picks the
# clone method: 0 vanilla (v4.12 bio_clone_bioset, bio_add_page per page), 1 the seed (v4.13
# bio_clone_fast + bio_trim, the default). The figures are simulated, not measured.
set -euo pipefail
cd "$(dirname -- "${BASH_SOURCE[0]}")/.."

for clone in 0 1; do
    ./kmodel xfs_io --set BTRFS_DIO_CLONE=$clone -f -c "falloc 0 2G" foo
    ./kmodel xfs_io --set BTRFS_DIO_CLONE=$clone -d -c "pwrite -b 128K 0 2G" foo
done
