// Native baseline for bench/phold.ts: the same PHOLD model over std::priority_queue.
// The random stream reproduces src/kernel/random-stream.ts bit for bit (stream
// derivation, pure-rand's xoroshiro128+ in 32-bit halves, uniformInt rejection,
// uniformFloat64), so both programs follow the same trajectory.
// Usage: phold <processes> <pendingPerProcess> <events> <meanDelay> <seed>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <string>
#include <vector>

static uint32_t splitmix32(uint32_t x) {
  x += 0x9e3779b9u;
  x = (x ^ (x >> 16)) * 0x85ebca6bu;
  x = (x ^ (x >> 13)) * 0xc2b2ae35u;
  return x ^ (x >> 16);
}
static uint32_t hashString(const std::string& s) {
  uint32_t h = 0x811c9dc5u;
  for (unsigned char c : s) h = (h ^ c) * 0x01000193u;
  return h;
}

struct Xoroshiro {  // pure-rand's XoroShiro128Plus, fields s01 s00 s11 s10
  int32_t s01, s00, s11, s10;
  int32_t next() {
    int32_t out = (int32_t)((uint32_t)s00 + (uint32_t)s10);
    uint32_t a0 = (uint32_t)s10 ^ (uint32_t)s00;
    uint32_t a1 = (uint32_t)s11 ^ (uint32_t)s01;
    uint32_t o00 = (uint32_t)s00, o01 = (uint32_t)s01;
    s00 = (int32_t)((o00 << 24) ^ (o01 >> 8) ^ a0 ^ (a0 << 16));
    s01 = (int32_t)((o01 << 24) ^ (o00 >> 8) ^ a1 ^ ((a1 << 16) | (a0 >> 16)));
    s10 = (int32_t)((a1 << 5) ^ (a0 >> 27));
    s11 = (int32_t)((a0 << 5) ^ (a1 >> 27));
    return out;
  }
};

static Xoroshiro deriveStream(uint32_t seed, const std::string& id) {
  uint32_t x = splitmix32(seed ^ 0x5eed5eedu) ^ hashString(id);
  int32_t st[4];
  for (uint32_t i = 0; i < 4; i++) {
    x = splitmix32(x + i);
    st[i] = (int32_t)x;
  }
  return Xoroshiro{st[0], st[1], st[2], st[3]};
}

static uint32_t uniformInt(Xoroshiro& r, uint32_t rangeSize) {
  double maxAllowed = rangeSize > 2 ? std::floor(4294967296.0 / rangeSize) * rangeSize : 4294967296.0;
  double v = (double)r.next() + 2147483648.0;
  while (v >= maxAllowed) v = (double)r.next() + 2147483648.0;
  return (uint32_t)std::fmod(v, (double)rangeSize);
}
static double uniformFloat64(Xoroshiro& r) {
  int32_t v1 = r.next() & 67108863;
  int32_t v2 = r.next() & 134217727;
  return v1 * 1.4901161193847656e-8 + v2 * 1.1102230246251565e-16;
}

struct Event {
  uint64_t time;
  uint64_t seq;
  int32_t target;
};
struct Later {
  bool operator()(const Event& a, const Event& b) const {
    return a.time > b.time || (a.time == b.time && a.seq > b.seq);
  }
};

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: phold <processes> <pending> <events> <meanDelay> <seed>\n");
    return 2;
  }
  const uint32_t n = (uint32_t)std::atol(argv[1]);
  const int pending = std::atoi(argv[2]);
  const uint64_t total = (uint64_t)std::atoll(argv[3]);
  const double mean = std::atof(argv[4]);
  const uint32_t seed = (uint32_t)std::atoll(argv[5]);
  Xoroshiro rng = deriveStream(seed, "phold");
  auto delay = [&]() -> uint64_t {
    return 1 + (uint64_t)std::floor(-mean * std::log(1 - uniformFloat64(rng)));
  };
  std::priority_queue<Event, std::vector<Event>, Later> q;
  uint64_t seq = 0, now = 0, events = 0;
  double targetSum = 0;
  for (uint32_t i = 0; i < n; i++)
    for (int e = 0; e < pending; e++) q.push(Event{now + delay(), seq++, (int32_t)i});
  auto t0 = std::chrono::steady_clock::now();
  while (!q.empty() && events < total) {
    Event ev = q.top();
    q.pop();
    now = ev.time;
    events++;
    uint32_t target = uniformInt(rng, n);
    targetSum += target;
    q.push(Event{now + delay(), seq++, (int32_t)target});
  }
  double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"events\":%llu,\"finalCycle\":%llu,\"targetSum\":%.0f,\"wallMs\":%.3f,\"eventsPerSec\":%.0f}\n",
              (unsigned long long)events, (unsigned long long)now, targetSum, wallMs, events / wallMs * 1000.0);
  return 0;
}
