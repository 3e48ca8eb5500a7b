// Reads DT_NEEDED entries: program headers, the dynamic segment, then the
// string table it names (a virtual address, mapped back to a file offset
// through the loadable segments). Every offset is checked against the
// image before use.
#include "elf_needed.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>
#include <optional>

#include "pmapi/errors.h"

namespace pmapi {
namespace {

// The ELF types of this process's class (ElfW from <link.h>).
using Ehdr = ElfW(Ehdr);
using Phdr = ElfW(Phdr);
using Dyn = ElfW(Dyn);

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kNativeData = ELFDATA2LSB;
#else
constexpr unsigned char kNativeData = ELFDATA2MSB;
#endif
constexpr unsigned char kNativeClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;

absl::Status Bad(const char* what) { return PcpError(kErrGeneric, what); }

// Copies a T from image[offset], or nullopt when it does not fit.
template <typename T>
std::optional<T> At(std::string_view image, uint64_t offset) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return std::nullopt;
  T v;
  std::memcpy(&v, image.data() + offset, sizeof(T));
  return v;
}

// The file offset of virtual address `vaddr`, from the PT_LOAD segments.
std::optional<uint64_t> FileOffset(const std::vector<Phdr>& loads, uint64_t vaddr) {
  for (const Phdr& p : loads) {
    if (vaddr >= p.p_vaddr && vaddr - p.p_vaddr < p.p_filesz) return p.p_offset + (vaddr - p.p_vaddr);
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<Phdr>> ProgramHeaders(std::string_view image, const Ehdr& eh) {
  if (eh.e_phentsize != sizeof(Phdr)) return Bad("ELF program header size");
  std::vector<Phdr> out;
  for (uint64_t i = 0; i < eh.e_phnum; ++i) {
    std::optional<Phdr> p = At<Phdr>(image, eh.e_phoff + i * sizeof(Phdr));
    if (!p) return Bad("ELF program headers outside the file");
    out.push_back(*p);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ElfNeeded(std::string_view image) {
  std::optional<Ehdr> eh = At<Ehdr>(image, 0);
  if (!eh || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) return Bad("not an ELF object");
  if (eh->e_ident[EI_CLASS] != kNativeClass || eh->e_ident[EI_DATA] != kNativeData) {
    return Bad("ELF object of another class or byte order");
  }
  absl::StatusOr<std::vector<Phdr>> phdrs = ProgramHeaders(image, *eh);
  if (!phdrs.ok()) return phdrs.status();
  std::vector<Phdr> loads;
  std::optional<Phdr> dynamic;
  for (const Phdr& p : *phdrs) {
    if (p.p_type == PT_LOAD) loads.push_back(p);
    if (p.p_type == PT_DYNAMIC && !dynamic) dynamic = p;
  }
  std::vector<std::string> needed;
  if (!dynamic) return needed;
  std::vector<uint64_t> name_offsets;
  std::optional<uint64_t> strtab;
  uint64_t strsz = 0;
  for (uint64_t off = 0; off + sizeof(Dyn) <= dynamic->p_filesz; off += sizeof(Dyn)) {
    std::optional<Dyn> d = At<Dyn>(image, dynamic->p_offset + off);
    if (!d) return Bad("ELF dynamic segment outside the file");
    if (d->d_tag == DT_NULL) break;
    if (d->d_tag == DT_NEEDED) name_offsets.push_back(d->d_un.d_val);
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    if (d->d_tag == DT_STRSZ) strsz = d->d_un.d_val;
  }
  if (name_offsets.empty()) return needed;
  if (!strtab) return Bad("ELF dynamic segment without a string table");
  std::optional<uint64_t> base = FileOffset(loads, *strtab);
  if (!base || *base > image.size()) return Bad("ELF string table outside the file");
  std::string_view table = image.substr(*base);
  if (strsz < table.size()) table = table.substr(0, strsz);
  for (uint64_t o : name_offsets) {
    if (o >= table.size()) return Bad("ELF needed name outside the string table");
    std::string_view rest = table.substr(o);
    const size_t end = rest.find('\0');
    if (end == std::string_view::npos) return Bad("ELF needed name without its end");
    needed.emplace_back(rest.substr(0, end));
  }
  return needed;
}

bool NeedsPcpLibrary(const std::vector<std::string>& needed) {
  for (const std::string& n : needed) {
    if (n.rfind("libpcp.so", 0) == 0 || n.rfind("libpcp_pmda.so", 0) == 0) return true;
  }
  return false;
}

}  // namespace pmapi
