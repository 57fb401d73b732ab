# The two commands a newcomer runs: `make run` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The card renderer draws indices with typefaces from Debian's font packages. CI runs as root
# and installs them; elsewhere the renderer falls back to the fonts it finds and says so here.
FONT_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-freefont-ttf \
	fonts-urw-base35
FONT_PROBES := /usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed-Bold.ttf \
	/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf \
	/usr/share/fonts/truetype/freefont/FreeSansBold.ttf \
	/usr/share/fonts/opentype/urw-base35/P052-Bold.otf

# More index typefaces for training (model/synth/faces/typefaces.py finds every font that draws
# an index and holds one kin of families in four out for test scenes): condensed, bold, serif,
# slab, rounded and monospaced families. `make model` installs them as root; the tests need none.
TYPEFACE_PACKAGES := fonts-adf-accanthis fonts-adf-baskervald fonts-adf-berenis \
	fonts-adf-gillius fonts-adf-ikarius fonts-adf-irianis fonts-adf-libris fonts-adf-mekanus \
	fonts-adf-oldania fonts-adf-romande fonts-adf-switzera fonts-adf-tribun \
	fonts-adf-universalis fonts-adf-verana fonts-averia-sans-gwf fonts-averia-serif-gwf \
	fonts-bebas-neue fonts-cabin fonts-cantarell fonts-comfortaa fonts-crosextra-caladea \
	fonts-crosextra-carlito fonts-croscore fonts-dosis fonts-ebgaramond fonts-fanwood \
	fonts-firacode fonts-go fonts-goudybookletter fonts-hack fonts-inconsolata fonts-inter \
	fonts-junicode fonts-jura fonts-lato fonts-league-spartan fonts-linuxlibertine \
	fonts-manrope fonts-mplus fonts-oldstandard fonts-open-sans fonts-paratype fonts-play \
	fonts-quicksand fonts-roboto-unhinted fonts-sil-andika fonts-sil-charis \
	fonts-sil-gentiumplus fonts-stix fonts-texgyre fonts-tuffy fonts-vollkorn \
	fonts-yanone-kaffeesatz

# Printed deck designs the scene renderer draws beside its own (model/synth/deck_art): Debian's
# SVG decks and librsvg's rasteriser. `make model` installs them as root, as `fonts` does the
# typefaces; without them the renderer draws its procedural designs alone and says so.
ART_PACKAGES := kdegames-card-data-kf5 gnome-cards-data librsvg2-bin
ART_PROBES := /usr/share/carddecks/svg-standard/standard.svgz \
	/usr/share/aisleriot/cards/anglo.svgz /usr/bin/rsvg-convert

# `make model` retrains the recogniser from scratch: render scenes (40 % of the standard decks
# printed ones, rasterised into build/deck-art on first use), cut samples, train the
# locator and the classifier, then the verifier, the refiner and the wider classifier on the
# exported locator's marks and the face reader on the labels, with checkpoints (an interrupted run resumes where it stopped), export and check ONNX.
MODEL_WORK ?= build/model
# where the trained networks are written: the shipped ones by default; another folder
# (MODEL_OUT=build/model/out) to measure them with `handfoot eval --models` before shipping
MODEL_OUT ?= model
MODEL_SCENES ?= 2000
# processes that render the scenes: every core (the scenes come out the same)
MODEL_JOBS ?= $(shell nproc)
# more options for the training, e.g. make model MODEL_ARGS="--peaks oval", or
# MODEL_ARGS="--device cuda --workers 7" to train on an accelerator
MODEL_ARGS ?=
# the labelled real photos (their splits' training parts teach; the held-out parts only
# measure), cut into locator samples and classifier crops with the shipped recogniser first;
# without them the networks learn rendered scenes only
REAL_DATA ?= ../shared/data
REAL_WORK = $(MODEL_WORK)/real
SPLITS = model/evaluate/splits
# the share of every batch shown dull, grey or cast (model/experiments/colour.md), and the
# share drawn from the real photos (version 34's classifier took 0.35 of its batches from them)
MODEL_RECOLOUR ?= 0.5
MODEL_REAL_SHARE ?= 0.3
TRAIN_STAMP := $(VENV)/.train-installed

.PHONY: run test lint format clean fonts typefaces deck-art chromium shellcheck model real-samples soak

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The table with the simulated camera and panel; it prints the address to open.
# HOST=0.0.0.0 lets phones on the network open it; DATA=folder keeps the games elsewhere.
HOST ?= 127.0.0.1
PORT ?= 8080
run: $(STAMP)
	$(BIN)/handfoot serve --camera synthetic --panel simulated --host $(HOST) --port $(PORT) \
		$(if $(DATA),--data $(DATA),)

# $(call apt_packages,MISSING,PACKAGES,WHAT,NOTE): where the shell test MISSING holds, CI and
# `make model` (as root) install PACKAGES with apt; elsewhere NOTE says what to install.
define apt_packages
	@if $(1); then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing $(3)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(2) >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(2) >/dev/null; }; \
	  else \
	    echo "note: $(4):"; \
	    echo "  sudo apt-get install $(2)"; \
	  fi; \
	fi
endef

fonts:
	$(call apt_packages,! ls $(FONT_PROBES) >/dev/null 2>&1,$(FONT_PACKAGES),font packages,some card typefaces are missing; for every deck style run)

typefaces:
	$(call apt_packages,! dpkg -s $(TYPEFACE_PACKAGES) >/dev/null 2>&1,$(TYPEFACE_PACKAGES),typefaces for training,training typefaces are missing; scenes will print fewer index typefaces)

deck-art:
	$(call apt_packages,! ls $(ART_PROBES) >/dev/null 2>&1,$(ART_PACKAGES),printed deck designs,printed deck designs are missing; scenes will draw procedural faces only)

# $(call apt_tool,COMMAND,PACKAGE,WHAT NEEDS IT): CI runs as root and installs PACKAGE with apt
# when COMMAND is missing; elsewhere, or if that fails, the test that needs it is skipped and
# says why. The browser test drives Debian's chromium (Playwright never downloads a browser
# here); the Pi install script is checked with shellcheck.
define apt_tool
	@if ! command -v $(1) >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing $(2) for $(3)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(2) >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(2) >/dev/null; } || \
	    echo "note: $(2) could not be installed; $(3) will be skipped"; \
	  else \
	    echo "note: $(3) is skipped without $(2); to run it:"; \
	    echo "  sudo apt-get install $(2)"; \
	  fi; \
	fi
endef

chromium:
	$(call apt_tool,chromium,chromium,the browser test)

shellcheck:
	$(call apt_tool,shellcheck,shellcheck,the install script's test)

test: $(STAMP) fonts chromium shellcheck
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

# The hardening review's attacks and faults against real servers on 127.0.0.1 (temporary data
# folders, a few minutes), as a table; SOAK_ROUNDS=3 for a longer run.
SOAK_ROUNDS ?= 1
soak: $(STAMP)
	$(BIN)/python -m tests.soak --rounds $(SOAK_ROUNDS)

# The runtime on the Pi's processor without a Pi: an aarch64 Debian root (debootstrap, as root)
# run under qemu-user, its readings of the fixture frames and golden deals compared with this
# machine's. PI_RELEASE=trixie for Raspberry Pi OS's newer base.
pi-check: $(STAMP)
	systemd/pi-check.sh

$(TRAIN_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train]'
	touch $(TRAIN_STAMP)

# each set cut twice: locator samples (marks-) and classifier crops (crops-); real-photos
# labels whole cards by rank, real-train each corner index by its card
WHOLE_CARDS_photos = --whole-cards
REAL_FILES = $(foreach kind,marks crops,$(foreach set,train photos,$(REAL_WORK)/$(kind)-$(set).npz))

$(REAL_WORK)/marks-%.npz: | $(TRAIN_STAMP)
	mkdir -p $(@D)
	$(BIN)/python -m model.recogniser.real_marks $(REAL_DATA)/real-$* \
		--labels $(SPLITS)/real-$*-training.csv $(WHOLE_CARDS_$*) --out $@

$(REAL_WORK)/crops-%.npz: | $(TRAIN_STAMP)
	mkdir -p $(@D)
	$(BIN)/python -m model.recogniser.real_crops $(REAL_DATA)/real-$* \
		--labels $(SPLITS)/real-$*-training.csv $(WHOLE_CARDS_$*) --out $@

ifeq ($(words $(wildcard $(REAL_DATA)/real-train $(REAL_DATA)/real-photos)),2)
real-samples: $(REAL_FILES)
else
real-samples:
	@echo "note: no real photos in $(REAL_DATA): the networks learn rendered scenes only"
endif

model: $(TRAIN_STAMP) fonts typefaces deck-art real-samples
	$(BIN)/handfoot synth --out $(MODEL_WORK)/scenes --count $(MODEL_SCENES) --seed 1001 --jobs $(MODEL_JOBS) --resume
	$(BIN)/python -m model.recogniser.train all --scenes $(MODEL_WORK)/scenes \
		--work $(MODEL_WORK) --out $(MODEL_OUT) --recolour $(MODEL_RECOLOUR) --real-share $(MODEL_REAL_SHARE) \
		$(foreach f,$(wildcard $(REAL_WORK)/marks-*.npz),--real $(f)) \
		$(foreach f,$(wildcard $(REAL_WORK)/crops-*.npz),--real-crops $(f)) \
		$(MODEL_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
