// Only the header matters: LLVMFuzzerRunDriver comes from libFuzzer.
#include "FuzzDriver.h"
