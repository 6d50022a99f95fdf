package io.portshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Repository;
import io.portshare.runtime.launch.OptionsPage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every option as the option model renders it, the way --help does:
 * an option added, renamed or given another default without regenerating the page fails here.
 */
class ConfigurationPageTest {

  @Test
  void theOptionTablesAreWhatTheOptionModelRenders() throws Exception {
    Path page = Repository.root().resolve("docs/configuration.md");
    String text = Files.readString(page);

    assertThat(text)
        .as("docs/configuration.md's option tables differ from the option model; regenerate them from the top of"
            + " the repository with:%n  %s%n", OptionsPage.COMMAND)
        .isEqualTo(OptionsPage.render(text))
        .contains("`--drain-timeout DURATION`", "`PORTSHARE_MAX_FRAME`", "`--root PATH`");
  }
}
