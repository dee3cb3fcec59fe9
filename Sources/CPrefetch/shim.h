#ifndef FEEDLAYOUT_CPREFETCH_SHIM_H
#define FEEDLAYOUT_CPREFETCH_SHIM_H

/* A hint to the processor that `address` will be read soon: the cache line is fetched while other
 * work goes on. No effect on results; a null or stale address is harmless (prefetches never
 * fault). Used to overlap the memory misses of independent rows when every row's data is cold
 * (a width change over a feed larger than the caches). */
static inline void feedlayout_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
