#include "session_test_util.h"
