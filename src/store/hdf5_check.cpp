// HDF5 calls checked where they happen (hdf5_check.hpp).

#include "store/hdf5_check.hpp"

#include <string>
#include <vector>

#include "base/os_error.hpp"

namespace sgx::hdf5 {

namespace {

// The sec2 driver reports failed system calls as "..., error message = 'No space left on device', ...".
std::string os_error_in(const std::string& desc) {
  const std::string key = "error message = '";
  auto start = desc.find(key);
  if (start == std::string::npos) return "";
  start += key.size();
  auto end = desc.find('\'', start);
  if (end == std::string::npos) return "";
  return lowercase_first(desc.substr(start, end - start));
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// Must run right after the failed call: the next HDF5 API call clears the stack.
Diagnosis diagnose() {
  std::vector<std::string> descs;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* error, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(error->desc ? error->desc : "");
        return 0;
      },
      &descs);
  Diagnosis d;
  d.detail = descs.empty() ? "unknown HDF5 error" : descs.front();
  for (const auto& desc : descs) {
    if (d.os_error.empty()) d.os_error = os_error_in(desc);
    if (contains(desc, "Fletcher32")) d.data_checksum = true;
    if (contains(desc, "metadata checksum")) d.metadata_checksum = true;
    if (contains(desc, "truncated file")) d.truncated = true;
    if (contains(desc, "signature not found")) d.not_hdf5 = true;
  }
  return d;
}

}  // namespace

hid_t check(hid_t id, const std::string& where) {
  if (id < 0) throw Hdf5Failure{where, diagnose()};
  return id;
}
void check(herr_t status, const std::string& where) {
  if (status < 0) throw Hdf5Failure{where, diagnose()};
}
bool check_tri(htri_t answer, const std::string& where) {
  if (answer < 0) throw Hdf5Failure{where, diagnose()};
  return answer > 0;
}

}  // namespace sgx::hdf5
