package io.portshare.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Repository;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * portshare-bom has no parent, so that importing it brings no build of this repository's: its
 * versions are written twice, and this keeps them one. The BOM's own version, Vert.x's and Netty's
 * are the parent pom's, and it manages every artifact a project outside the repository depends on.
 */
class BomTest {

  private static final Path ROOT = Repository.root();

  @Test
  void theBomsVersionsAreTheParentPomsAndItManagesEveryPublishedArtifact() throws Exception {
    Document parent = read(ROOT.resolve("pom.xml"));
    Document bom = read(ROOT.resolve("services/bom/pom.xml"));
    assertThat(text(bom, "version")).as("the BOM's version").isEqualTo(text(parent, "version"));
    assertThat(property(bom, "vertx.version")).isEqualTo(property(parent, "vertx.version"));
    assertThat(property(bom, "netty.version")).isEqualTo(property(parent, "netty.version"));
    assertThat(managed(bom)).contains("io.netty:netty-bom", "io.vertx:vertx-stack-depchain",
        "io.portshare:portshare-runtime", "io.portshare:portshare-web", "io.portshare:portshare-test",
        "io.portshare:portshare-rpc-codec", "io.portshare:portshare-rpc-client");
    assertThat(bom.getElementsByTagName("parent").getLength()).as("a parent").isZero();
  }

  private static Document read(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  /** A child element of the project element, by name. */
  private static String text(Document pom, String name) {
    NodeList children = pom.getDocumentElement().getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (children.item(i) instanceof Element e && e.getTagName().equals(name)) {
        return e.getTextContent().trim();
      }
    }
    throw new AssertionError("no <" + name + "> in the project element");
  }

  private static String property(Document pom, String name) {
    NodeList found = pom.getElementsByTagName(name);
    assertThat(found.getLength()).as("property %s", name).isEqualTo(1);
    return found.item(0).getTextContent().trim();
  }

  private static List<String> managed(Document pom) {
    Element management = (Element) pom.getElementsByTagName("dependencyManagement").item(0);
    NodeList deps = management.getElementsByTagName("dependency");
    List<String> found = new ArrayList<>();
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      found.add(d.getElementsByTagName("groupId").item(0).getTextContent().trim() + ":"
          + d.getElementsByTagName("artifactId").item(0).getTextContent().trim());
    }
    return found;
  }
}
