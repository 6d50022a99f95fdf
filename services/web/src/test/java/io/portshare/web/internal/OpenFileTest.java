package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.FileRegion;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files past memoryMax kept open with their cache entry: opened at the lookup, the same descriptor for
 * every hit, closed when the entry is forgotten (changed on disk, evicted, the cache closed) but not
 * while a region of it is still being sent, and never more than the limit.
 */
class OpenFileTest {

  private static final long NOW = 1_000_000;

  @TempDir
  Path tmp;
  private Path root;

  @BeforeEach
  void site() throws IOException {
    root = tmp.toRealPath();
    for (String name : new String[] {"a.bin", "b.bin", "c.bin"}) {
      Files.write(root.resolve(name), new byte[2048]);
    }
    Files.writeString(root.resolve("small.txt"), "small\n");
  }

  private static RequestRouter router(FileCache cache) {
    return new RequestRouter(cache, false);
  }

  private static FileCache cache(Path root, int openFilesMax, int entries) {
    return new FileCache(root, new FileCache.Config("index.html", false, true, entries, 1024, 1 << 20,
        FileCache.VALID_MILLIS, false, openFilesMax));
  }

  @Test
  void aLargeFileIsOpenedAtItsLookupAndEveryHitSharesIt() {
    RequestRouter router = router(cache(root, 8, 16));
    CachedFile first = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW);
    CachedFile hit = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW + 1);
    CachedFile revalidated = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW + FileCache.VALID_MILLIS);

    assertThat(first.open).isNotNull();
    assertThat(first.open.isOpen()).isTrue();
    assertThat(hit).isSameAs(first);
    assertThat(revalidated).as("unchanged on disk").isSameAs(first);
    assertThat(revalidated.open.isOpen()).isTrue();
    assertThat(((CachedFile) router.route(HttpMethod.GET, "/small.txt", NOW)).open).as("from memory").isNull();
  }

  @Test
  void aRegionSentGivesItBackOpenAndAChangedFileClosesItOnceTheRegionInFlightIsSent() throws IOException {
    RequestRouter router = router(cache(root, 8, 16));
    CachedFile first = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW);
    FileRegion sent = first.open.region(0, 100);
    sent.release();
    assertThat(first.open.isOpen()).as("after a region was sent").isTrue();

    OpenFile old = first.open;
    FileRegion inFlight = old.region(0, 100);
    Files.setLastModifiedTime(root.resolve("a.bin"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    CachedFile changed = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW + FileCache.VALID_MILLIS);

    assertThat(changed).isNotSameAs(first);
    assertThat(changed.open.isOpen()).isTrue();
    assertThat(first.open).as("the old entry's descriptor given back").isNull();
    assertThat(old.isOpen()).as("the old file while a region of it is being sent").isTrue();
    inFlight.release();
    assertThat(old.isOpen()).as("the old file once that region is sent").isFalse();
  }

  /** Vert.x's sendFile takes the channel itself: lent, it stays open past a change until given back. */
  @Test
  void aLentChannelStaysOpenUntilGivenBack() throws IOException {
    RequestRouter router = router(cache(root, 8, 16));
    OpenFile old = ((CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW)).open;
    FileChannel lent = old.lend();
    Files.setLastModifiedTime(root.resolve("a.bin"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    router.route(HttpMethod.GET, "/a.bin", NOW + FileCache.VALID_MILLIS);

    assertThat(lent.isOpen()).as("lent to an answer still being sent").isTrue();
    old.release();
    assertThat(lent.isOpen()).as("given back by that answer").isFalse();
  }

  /**
   * A lookup on a worker may outlive its entry: the stale entry it was given is evicted (its
   * descriptor closed) before the disk, still agreeing with it, brings it back. It then answers by
   * opening the file per answer, never by a closed descriptor.
   */
  @Test
  void anEntryEvictedWhileLookedUpComesBackWithoutItsClosedDescriptor() {
    FileCache cache = cache(root, 8, 1);
    RequestRouter router = router(cache);
    CachedFile a = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW);
    OpenFile aOpen = a.open;
    Route.Lookup lookup = (Route.Lookup) router.cached(HttpMethod.GET, "/a.bin", NOW + FileCache.VALID_MILLIS);
    FileCache.Found found = router.resolve(lookup, NOW + FileCache.VALID_MILLIS); // on a worker, in the handler
    router.route(HttpMethod.GET, "/b.bin", NOW + FileCache.VALID_MILLIS); // meanwhile: evicts a.bin

    CachedFile back = (CachedFile) router.decide(lookup, found, NOW + FileCache.VALID_MILLIS);
    assertThat(back).as("the disk still agrees").isSameAs(a);
    assertThat(aOpen.isOpen()).as("evicted").isFalse();
    assertThat(back.open).as("no descriptor: its answers open the file").isNull();
  }

  @Test
  void pastTheLimitAFileIsNotKeptOpenAndEvictionAndCloseCloseWhatIs() {
    FileCache cache = cache(root, 1, 2);
    RequestRouter router = router(cache);
    CachedFile a = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW);
    CachedFile b = (CachedFile) router.route(HttpMethod.GET, "/b.bin", NOW);

    assertThat(a.open.isOpen()).isTrue();
    assertThat(b.open).as("past the limit of 1: opened per answer").isNull();

    OpenFile aOpen = a.open;
    router.route(HttpMethod.GET, "/c.bin", NOW); // evicts a.bin, the eldest of 2 entries
    assertThat(aOpen.isOpen()).as("evicted").isFalse();
    assertThat(a.open).isNull();
    CachedFile c = (CachedFile) router.route(HttpMethod.GET, "/c.bin", NOW);
    assertThat(c.open).as("a's descriptor given back: c.bin kept open").isNotNull();
    assertThat(cache.openFiles()).isEqualTo(1);

    OpenFile cOpen = c.open;
    router.close();
    assertThat(cOpen.isOpen()).as("the cache closed").isFalse();
    assertThat(c.open).as("its entry answers by opening the file").isNull();
    CachedFile afterClose = (CachedFile) router.route(HttpMethod.GET, "/a.bin", NOW);
    assertThat(afterClose.open).as("looked up after close: kept open no more").isNull();
    assertThat(cache.openFiles()).isZero();
  }
}
