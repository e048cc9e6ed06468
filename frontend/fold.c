#include <config.h>
