#include "common/result_code.h"

namespace basalt {

const char* ResultCodeText(int code) {
  switch (code) {
    case kRow:
      return "another row available";
    case kDone:
      return "no more rows available";
    case kAbortRollback:
      return "abort due to ROLLBACK";
    default:
      break;
  }
  switch (code & 0xff) {
    case kOk: return "not an error";
    case kError: return "SQL logic error";
    case kInternal: return "internal error";  // not reported by SQLite's table
    case kPerm: return "access permission denied";
    case kAbort: return "query aborted";
    case kBusy: return "database is locked";
    case kLocked: return "database table is locked";
    case kNoMem: return "out of memory";
    case kReadOnly: return "attempt to write a readonly database";
    case kInterrupt: return "interrupted";
    case kIoErr: return "disk I/O error";
    case kCorrupt: return "database disk image is malformed";
    case kNotFound: return "unknown operation";
    case kFull: return "database or disk is full";
    case kCantOpen: return "unable to open database file";
    case kProtocol: return "locking protocol";
    case kEmpty: return "unknown error";
    case kSchema: return "database schema has changed";
    case kTooBig: return "string or blob too big";
    case kConstraint: return "constraint failed";
    case kMismatch: return "datatype mismatch";
    case kMisuse: return "bad parameter or other API misuse";
    case kNoLfs: return "large file support is disabled";
    case kAuth: return "authorization denied";
    case kFormat: return "unknown error";
    case kRange: return "column index out of range";
    case kNotADb: return "file is not a database";
    case kNotice: return "notification message";
    case kWarning: return "warning message";
    default: return "unknown error";
  }
}

}  // namespace basalt
