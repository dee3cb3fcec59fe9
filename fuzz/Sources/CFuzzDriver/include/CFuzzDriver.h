// libFuzzer's driver entry point (provided by -sanitize=fuzzer's runtime). SwiftPM links each
// executable with `main` bound to `<Module>_main`, so libFuzzer's own `main` is not used: every fuzz
// target defines `<Module>_main` and hands its input callback to this driver.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
