// The words of the rules page and the first-game guide, in English and Polish, and the game's terms in each
// edition's words (Zamek 2020 and The Castle 2003). The terms are the server's own (zamek.castle.terms,
// zamek.knights.terms, zamek.castle.rules.tokens): tests/browser/test_help_browser.py checks that they agree.
//
// A text names the game's things by placeholders: {road}, {house}, ... are the edition's word as it is;
// {Road} the same with a capital. Polish texts use them where the word stands alone (in the nominative).

export const TERMS = {
  en: {
    zamek: {
      road: "road", house: "house", pigsty: "pigsty", meadow: "meadow", shrine: "shrine", shrines: "shrines",
      stocks: "stocks", fountain: "fountain", "family-house": "family house", herald: "herald", squire: "squire",
      farmer: "farmer", monk: "monk", "special-token": "special token",
      "token:1": "extra turn", "token:2": "house x2", "token:3": "pigsty x2", "token:4": "meadow: 4 per shrine",
      "token:5": "family house +2 tiles", "token:6": "5 points", "token:7": "unfinished house",
      "token:8": "unfinished pigsty", "token:9": "unfinished road",
    },
    castle2003: {
      road: "path", house: "house", pigsty: "tower", meadow: "courtyard", shrine: "market stall",
      shrines: "market stalls", stocks: "fountain", fountain: "square", "family-house": "keep", herald: "herald",
      squire: "squire", farmer: "knight", monk: "merchant", "special-token": "wall tile",
      "token:1": "extra turn", "token:2": "house x2", "token:3": "tower x2", "token:4": "courtyard: 4 per market stall",
      "token:5": "keep +2 tiles", "token:6": "5 points", "token:7": "unfinished house", "token:8": "unfinished tower",
      "token:9": "unfinished path",
    },
    common: {
      chapel: "chapel", preacher: "preacher", prince: "prince", falconer: "falconer", nest: "falcon nest",
      nests: "falcon nests", gate: "gate", follower: "follower",
    },
  },
  pl: {
    zamek: {
      road: "droga", house: "dom", pigsty: "chlew", meadow: "łąka", shrine: "kapliczka", shrines: "kapliczki",
      stocks: "dyby", fountain: "fontanna", "family-house": "siedziba rodu", herald: "herold", squire: "giermek",
      farmer: "rolnik", monk: "mnich", "special-token": "żeton specjalny",
      "token:1": "dodatkowa tura", "token:2": "dom x2", "token:3": "chlew x2", "token:4": "łąka: 4 pkt za kapliczkę",
      "token:5": "siedziba rodu +2 kafelki", "token:6": "5 punktów", "token:7": "nieukończony dom",
      "token:8": "nieukończony chlew", "token:9": "nieukończona droga",
    },
    castle2003: {
      road: "ścieżka", house: "domostwo", pigsty: "wieża", meadow: "dziedziniec", shrine: "stragan",
      shrines: "stragany", stocks: "fontanna", fountain: "plac", "family-house": "donżon", herald: "herold",
      squire: "dziedzic", farmer: "rycerz", monk: "kupiec", "special-token": "żeton murów",
      "token:1": "dodatkowa tura", "token:2": "domostwo x2", "token:3": "wieża x2",
      "token:4": "dziedziniec: 4 pkt za stragan", "token:5": "donżon +2 kafelki", "token:6": "5 punktów",
      "token:7": "nieukończone domostwo", "token:8": "nieukończona wieża", "token:9": "nieukończona ścieżka",
    },
    common: {
      chapel: "kaplica", preacher: "kaznodzieja", prince: "książę", falconer: "sokolnik", nest: "sokole gniazdo",
      nests: "sokole gniazda", gate: "brama", follower: "poddany",
    },
  },
};

// The number printed on each token, by its kind (the Zamek number): The Castle 2003 numbers them its own way (C4).
export const TOKEN_NUMBERS = {
  zamek: { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9 },
  castle2003: { 1: 1, 2: 3, 3: 2, 4: 7, 5: 8, 6: 9, 7: 6, 8: 5, 9: 4 },
};

// Rycerze i zamki's words (zamek.knights.terms).
export const KNIGHTS_TERMS = {
  en: {
    "card:dragon": "dragon", "card:mounted-knight": "mounted knight", "card:knight": "knight",
    "card:foot-soldier": "foot soldier", "card:peasant": "peasant", "card:hog": "hog", "card:shepherd": "shepherd",
    "kind:stone": "stone", "kind:brick": "brick", "kind:wood": "wood",
    "tile:stone-small": "small stone castle (1 point)", "tile:stone-big": "big stone castle (2 points)",
    "tile:brick-small": "small brick castle (1 point)", "tile:brick-big": "big brick castle (2 points)",
    "tile:wood-small": "small wooden castle (1 point)", "tile:wood-big": "big wooden castle (2 points)",
    "tile:drum": "drum: recruitment",
  },
  pl: {
    "card:dragon": "smok", "card:mounted-knight": "rycerz na koniu", "card:knight": "rycerz",
    "card:foot-soldier": "piechur", "card:peasant": "chłop", "card:hog": "tucznik", "card:shepherd": "pasterz",
    "kind:stone": "kamienny", "kind:brick": "ceglany", "kind:wood": "drewniany",
    "tile:stone-small": "mały kamienny zamek (1 pkt)", "tile:stone-big": "duży kamienny zamek (2 pkt)",
    "tile:brick-small": "mały ceglany zamek (1 pkt)", "tile:brick-big": "duży ceglany zamek (2 pkt)",
    "tile:wood-small": "mały drewniany zamek (1 pkt)", "tile:wood-big": "duży drewniany zamek (2 pkt)",
    "tile:drum": "bębenek: rekrutacja",
  },
};

// The page's own words. Rule ids (Z7, F2, K4) point to the project's rules reference.
export const HELP = {
  en: {
    "help-link": "Rules",
    "help-link-label": "The rules of the game",
    "help-title": "How to play",
    "help-edition": "In the words of",
    "edition-zamek": "Zamek (2020)",
    "edition-castle2003": "The Castle (2003)",
    "help-contents": "Contents",
    "help-back": "Back",

    "s-goal": "The game in brief",
    "goal-1": "Two players fill the inside of a walled castle with tiles, one tile a turn. Completed features score at once: a {road}, a {house}, a {pigsty}. At the end of the game, {meadow} areas with their {shrines} and the biggest {family-house} score too. The most points wins; equal points share the victory.",
    "goal-2": "Your turn: 1. draw a tile and place it; 2. you may put one figure from your supply on that tile; 3. everything the tile completed is scored.",

    "s-tiles": "Placing a tile",
    "tiles-1": "The tile goes on an empty space inside the wall, turned as you like. At least one of its sides must touch a placed tile or a start space (the half tiles printed on the wall). Where sides touch, a {road} must meet a {road}; any other feature may meet any other. Any side may face the wall.",
    "tiles-2": "A tile that fits nowhere is put aside and you draw again. The game ends when no tile is left to draw.",
    "tiles-fits": "fits: {road} meets {road}",
    "tiles-not": "does not fit: {road} meets {house}",

    "s-features": "What is on a tile",
    "features-1": "Each tile shows features. Features of one kind that meet across tiles become one feature, however many tiles it covers.",
    "f-road": "{Road}: leads from side to side; it ends at a {fountain}, at a building, at a start space's wall, or closes into a loop.",
    "f-house": "{House}: the red buildings with roofs.",
    "f-pigsty": "{Pigsty}: the brown yards with pigs and a fence.",
    "f-meadow": "{Meadow}: the green ground around the rest. It never scores during the game.",
    "f-shrine": "{Shrine}: stands on a {meadow}; it counts at the end of the game.",
    "f-stocks@zamek": "Stocks: they stand beside a road, and that road scores 2 points a tile.",
    "f-stocks@castle2003": "Fountain: it stands beside a path, and that path scores 2 points a tile.",
    "f-fountain": "{Fountain}: the {road} arms that reach it end there.",

    "s-figures": "Figures",
    "figures-1": "After placing your tile you may put one figure from your supply on one of its features. What it is depends on the feature:",
    "role-herald": "{herald} on a {road}",
    "role-squire": "{squire} on a {house}",
    "role-farmer": "{farmer} on a {pigsty}",
    "role-monk": "{monk} on a {meadow}, lying down",
    "figures-2": "Not on a feature that already holds a figure of either player, however far away it stands. A later tile may join two features that both have figures: they all stay.",
    "figures-3": "A figure comes back to your supply when its feature has been scored; a {monk} stays to the end. You have 7 figures: one of them counts your points on the track.",

    "s-scoring": "Scoring",
    "scoring-1": "A {road}, a {house} or a {pigsty} is complete when none of its edges faces an empty space. It scores for the player with more figures on it; a tie scores nothing, and so does a feature nobody stands on.",
    "scoring-2": "Points, for each tile the feature covers (start spaces count as tiles, a tile counts once):",
    "points-road@zamek": "road: 1 point a tile, 2 if stocks stand beside it",
    "points-road@castle2003": "path: 1 point a tile, 2 if a fountain stands beside it",
    "points-house": "{house}: 1 point a tile",
    "points-pigsty": "{pigsty}: 2 points a tile",
    "scoring-3": "Each feature moves your score marker on its own. When a tile completes several, yours are scored first, then your opponent's; where the order matters you choose it.",
    "scoring-4": "A move that ends on a tower still holding a {special-token} takes it. Passing a tower takes nothing; after 99 the track starts again at 0.",
    "scoring-5": "Your first completed {house} becomes your {family-house}; a bigger one you complete later takes its place.",
    "ex-road@zamek": "Road of 3 tiles, complete: 3 points (6 if stocks stood beside it)",
    "ex-road@castle2003": "Path of 3 tiles, complete: 3 points (6 if a fountain stood beside it)",
    "ex-house": "{House} of 2 tiles, complete: 2 points",
    "ex-pigsty": "{Pigsty} of 2 tiles, complete: 4 points",

    "s-tokens": "Tokens on the towers",
    "tokens-1": "18 face-down tokens ({special-token}), two of each kind. Each tower on the wall holds one, but the tower at 0–1. A token you take is shown to both players.",
    "tokens-when@zamek": "You may use a token from your next turn on (an extra turn counts), in your own turns only; a used token leaves the game.",
    "tokens-when@castle2003": "You may use a token already in the turn you took it, after taking it, and in any later turn of yours; a used token leaves the game.",
    "tokens-end": "Tokens marked “end” are used for you at the final scoring, as they help you most. “Control” means more figures on the feature than your opponent.",
    "token-1": "at the end of your turn, take another turn",
    "token-2": "a {house} you complete in your turn scores 2 points a tile",
    "token-3": "a {pigsty} you complete in your turn scores 4 points a tile",
    "token-4": "end: one {meadow} you control scores 4 points per {shrine}",
    "token-5": "end: your {family-house} counts 2 tiles bigger",
    "token-6": "end: 5 points",
    "token-7": "end: one unfinished {house} you control scores 1 point a tile",
    "token-8": "end: one unfinished {pigsty} you control scores 2 points a tile",
    "token-9@zamek": "end: one unfinished {road} you control scores 1 point a tile",
    "token-9@castle2003": "end: one unfinished {road} you control scores 1 point a tile, 2 if a {stocks} stands beside it",

    "s-end": "The end of the game",
    "end-1": "The game ends when no tile is left. Tokens still on the towers are removed. Then:",
    "end-meadow": "{Meadow}: every one with a {monk} scores 3 points per {shrine} on it (start spaces' included) for the player with more {monk} figures there; a tie scores nothing.",
    "end-family": "{Family-house}: find the largest empty area, the biggest group of empty spaces joined side to side. The player whose {family-house} covers more tiles scores one point per space of that area; a tie scores nothing.",
    "end-tokens": "End tokens are applied. Unfinished features score nothing without them. Most points wins.",
    "end-area": "largest empty area: {n} spaces",

    "s-sokol": "Sokół (Falcon)",
    "sokol-1": "The expansion adds 18 tiles with {chapel} buildings and falcon nests, 4 {gate} spaces in the wall with two more start spaces, and for each player a {prince} and a {falconer}.",
    "sokol-chapel": "{Chapel}: a building, placed and completed like a {house}. A figure on it is a {preacher}. Complete, it scores by its size: 1, 3, 6, 10, 15, 21, 28 points for 1 to 7 tiles, 36 for 8 or more. Unfinished, it scores nothing.",
    "sokol-prince": "{Prince}: stands in any role and doubles the points you score for his feature (then no ×2 token may be used on it).",
    "sokol-falconer": "{Falconer}: stands in any role and brings you one more {nest} token when his feature is scored.",
    "sokol-both": "Each counts as one figure, and neither may go on a feature that its tile completes.",
    "sokol-nests": "Scoring a complete feature gives you one {nest} token for each nest drawn on its tiles (a tie gives nobody any). At the end, the player with more {nests} scores the largest empty area once more.",
    "sokol-gates": "A score marker skips the {gate} spaces. Variant “Stój! Kto idzie?”: during play a marker that moves onto a {gate} stops there, and the rest of that move is lost.",

    "s-knights": "Rycerze i zamki (the card game)",
    "knights-1": "A card game for 2 to 4 players. Everyone has the same 8 cards: six army cards and two shepherds. Each army card has a strength against each kind of castle: stone, brick and wood.",
    "knights-2": "The 8 tiles are shuffled and one goes back to the box unseen: 7 rounds. The youngest player starts with the sword. Each round turns up a tile:",
    "knights-castle": "A castle: everyone lays two cards face down, then all show them. Shepherds go back to the hands. An army card laid by more than one player goes, every copy of it, to the owners' camps. The strongest card left against this castle's kind takes the castle; if none is left, the sword's holder takes it. The other cards go to their owners' camps, and the player with the fewest castle points takes the sword (a tie: the youngest of them).",
    "knights-drum": "A drum: everyone takes one card of their choice from their camp back into their hand.",
    "knights-end": "After the 7th round the castles' points decide; a tie goes to more cards in hand, then to the youngest.",
    "knights-card": "The knight: 6 against stone, 3 against brick, 2 against wood. The shepherd is blank and always comes back.",

    "guide-title": "Your first game",
    "guide-tile": "① This is your tile. Turn it with ⟲ ⟳ (or R) to fit it where you want.",
    "guide-spaces": "② The highlighted spaces on the board are where it fits as it is turned: click one to place it. The faint ones fit once it is turned.",
    "guide-figure": "③ Now you may put a figure on one feature of your tile: each button names the figure and the feature, and pointing at one shows it on the board. Or choose “No figure”. Completed features score at once.",
    "guide-hide": "Hide the guide",
    "guide-option": "Show the first-game guide",
    "guide-restart": "Start the guide again",
    "guide-restarted": "The guide will show at the start of your next game.",
  },
  pl: {
    "help-link": "Zasady",
    "help-link-label": "Zasady gry",
    "help-title": "Jak grać",
    "help-edition": "Słownictwo wydania",
    "edition-zamek": "Zamek (2020)",
    "edition-castle2003": "The Castle (2003)",
    "help-contents": "Spis treści",
    "help-back": "Wróć",

    "s-goal": "Gra w skrócie",
    "goal-1@zamek": "Dwoje graczy zapełnia kafelkami wnętrze zamku otoczonego murem, po jednym kafelku na turę. Ukończone drogi, domy i chlewy punktują od razu. Na koniec gry punktują jeszcze łąki z kapliczkami i największa siedziba rodu. Wygrywa ten, kto ma najwięcej punktów; remis to wspólne zwycięstwo.",
    "goal-1@castle2003": "Dwoje graczy zapełnia kafelkami wnętrze zamku otoczonego murem, po jednym kafelku na turę. Ukończone ścieżki, domostwa i wieże punktują od razu. Na koniec gry punktują jeszcze dziedzińce ze straganami i największy donżon. Wygrywa ten, kto ma najwięcej punktów; remis to wspólne zwycięstwo.",
    "goal-2": "Twoja tura: 1. dobierz kafelek i połóż go; 2. możesz postawić na nim jedną figurę ze swojego zapasu; 3. wszystko, co ten kafelek ukończył, jest punktowane.",

    "s-tiles": "Kładzenie kafelka",
    "tiles-1@zamek": "Kafelek kładziesz na pustym polu wewnątrz murów, obrócony jak chcesz. Przynajmniej jednym bokiem musi stykać się z położonym kafelkiem albo z polem startowym (połówką kafelka nadrukowaną na murze). Na styku droga musi trafiać na drogę; pozostałe obszary mogą stykać się z czymkolwiek. Każdy bok może przylegać do muru.",
    "tiles-1@castle2003": "Kafelek kładziesz na pustym polu wewnątrz murów, obrócony jak chcesz. Przynajmniej jednym bokiem musi stykać się z położonym kafelkiem albo z polem startowym (połówką kafelka nadrukowaną na murze). Na styku ścieżka musi trafiać na ścieżkę; pozostałe obszary mogą stykać się z czymkolwiek. Każdy bok może przylegać do muru.",
    "tiles-2": "Kafelek, który nigdzie nie pasuje, odkłada się i dobiera kolejny. Gra kończy się, gdy nie ma już kafelków do dobrania.",
    "tiles-fits@zamek": "pasuje: droga do drogi",
    "tiles-fits@castle2003": "pasuje: ścieżka do ścieżki",
    "tiles-not@zamek": "nie pasuje: droga do domu",
    "tiles-not@castle2003": "nie pasuje: ścieżka do domostwa",

    "s-features": "Co jest na kafelku",
    "features-1": "Na każdym kafelku są obszary. Obszary jednego rodzaju, które stykają się na sąsiednich kafelkach, tworzą jeden obszar, niezależnie od tego, ile kafelków obejmuje.",
    "f-road@zamek": "Droga: biegnie od boku do boku; kończy się przy fontannie, przy budynku albo przy murze pola startowego, może też zamknąć się w pętlę.",
    "f-road@castle2003": "Ścieżka: biegnie od boku do boku; kończy się na placu, przy budynku albo przy murze pola startowego, może też zamknąć się w pętlę.",
    "f-house@zamek": "Dom: czerwone budynki z dachami.",
    "f-house@castle2003": "Domostwo: czerwone budynki z dachami.",
    "f-pigsty@zamek": "Chlew: brązowa zagroda ze świniami i płotem.",
    "f-pigsty@castle2003": "Wieża: brązowa zagroda ze świniami i płotem (tak rysujemy ją w obu wydaniach).",
    "f-meadow@zamek": "Łąka: zielony teren wokół reszty. W trakcie gry nigdy nie punktuje.",
    "f-meadow@castle2003": "Dziedziniec: zielony teren wokół reszty. W trakcie gry nigdy nie punktuje.",
    "f-shrine@zamek": "Kapliczka: stoi na łące; liczy się na koniec gry.",
    "f-shrine@castle2003": "Stragan: stoi na dziedzińcu; liczy się na koniec gry.",
    "f-stocks@zamek": "Dyby: stoją przy drodze; taka droga daje 2 pkt za kafelek.",
    "f-stocks@castle2003": "Fontanna: stoi przy ścieżce; taka ścieżka daje 2 pkt za kafelek.",
    "f-fountain@zamek": "Fontanna: każde ramię drogi, które do niej prowadzi, kończy się przy niej.",
    "f-fountain@castle2003": "Plac: każde ramię ścieżki, które do niego prowadzi, kończy się na nim.",

    "s-figures": "Figury",
    "figures-1": "Po położeniu kafelka możesz postawić jedną figurę ze swojego zapasu na jednym z jego obszarów. Jej rola zależy od obszaru:",
    "role-herald": "{herald} — obszar: {road}",
    "role-squire": "{squire} — obszar: {house}",
    "role-farmer": "{farmer} — obszar: {pigsty}",
    "role-monk": "{monk} — obszar: {meadow} (figura leży)",
    "figures-2": "Nie wolno stawiać figury na obszarze, na którym stoi już figura któregokolwiek gracza, nawet daleko. Późniejszy kafelek może połączyć dwa obszary z figurami: wszystkie zostają.",
    "figures-3": "Figura wraca do zapasu po punktowaniu swojego obszaru; {monk} zostaje do końca gry. Masz 7 figur: jedna z nich liczy twoje punkty na torze.",

    "s-scoring": "Punktowanie",
    "scoring-1": "Obszar ({road}, {house}, {pigsty}) jest ukończony, gdy żaden jego brzeg nie graniczy z pustym polem. Punkty dostaje gracz, który ma na nim więcej figur; przy remisie, a także gdy nikt na nim nie stoi, nikt nie punktuje.",
    "scoring-2": "Punkty za każdy kafelek, który obejmuje obszar (pole startowe liczy się jak kafelek, każdy kafelek raz):",
    "points-road@zamek": "droga: 1 pkt za kafelek, 2 pkt, gdy obok stoją dyby",
    "points-road@castle2003": "ścieżka: 1 pkt za kafelek, 2 pkt, gdy obok stoi fontanna",
    "points-house": "{house}: 1 pkt za kafelek",
    "points-pigsty": "{pigsty}: 2 pkt za kafelek",
    "scoring-3": "Każdy obszar przesuwa twój znacznik osobno. Gdy kafelek ukończy kilka obszarów, najpierw punktują twoje, potem przeciwnika; tam, gdzie kolejność ma znaczenie, wybierasz ją ty.",
    "scoring-4": "Ruch znacznika zakończony na baszcie, na której leży jeszcze {special-token}, zdobywa go. Przejście obok baszty nic nie daje; po 99 tor zaczyna się znów od 0.",
    "scoring-5@zamek": "Twój pierwszy ukończony dom staje się twoją siedzibą rodu; większy dom, ukończony później, zajmuje jej miejsce.",
    "scoring-5@castle2003": "Twoje pierwsze ukończone domostwo staje się twoim donżonem; większe domostwo, ukończone później, zajmuje jego miejsce.",
    "ex-road@zamek": "Droga z 3 kafelków, ukończona: 3 pkt (6 pkt, gdy obok stoją dyby)",
    "ex-road@castle2003": "Ścieżka z 3 kafelków, ukończona: 3 pkt (6 pkt, gdy obok stoi fontanna)",
    "ex-house@zamek": "Dom z 2 kafelków, ukończony: 2 pkt",
    "ex-house@castle2003": "Domostwo z 2 kafelków, ukończone: 2 pkt",
    "ex-pigsty@zamek": "Chlew z 2 kafelków, ukończony: 4 pkt",
    "ex-pigsty@castle2003": "Wieża z 2 kafelków, ukończona: 4 pkt",

    "s-tokens": "Żetony na basztach",
    "tokens-1": "18 zakrytych żetonów ({special-token}), po dwa każdego rodzaju. Leżą na basztach muru, po jednym na każdej oprócz baszty przy polach 0–1. Zdobyty żeton odkrywa się przed obojgiem graczy.",
    "tokens-when@zamek": "Żetonu możesz użyć od swojej następnej tury (dodatkowa tura też się liczy), tylko w swoich turach; użyty żeton odpada z gry.",
    "tokens-when@castle2003": "Żetonu możesz użyć już w turze, w której go zdobyto (po jego zdobyciu), i w każdej swojej późniejszej turze; użyty żeton odpada z gry.",
    "tokens-end": "Żetony oznaczone „koniec” są użyte za ciebie w punktacji końcowej, tak by dały ci najwięcej. „Kontrolujesz” obszar, gdy masz na nim więcej figur niż przeciwnik.",
    "token-1": "na koniec tury rozegraj jeszcze jedną turę",
    "token-2@zamek": "dom ukończony w twojej turze daje 2 pkt za kafelek",
    "token-2@castle2003": "domostwo ukończone w twojej turze daje 2 pkt za kafelek",
    "token-3@zamek": "chlew ukończony w twojej turze daje 4 pkt za kafelek",
    "token-3@castle2003": "wieża ukończona w twojej turze daje 4 pkt za kafelek",
    "token-4@zamek": "koniec: jedna kontrolowana łąka daje 4 pkt za każdą kapliczkę",
    "token-4@castle2003": "koniec: jeden kontrolowany dziedziniec daje 4 pkt za każdy stragan",
    "token-5@zamek": "koniec: twoja siedziba rodu liczy się jak większa o 2 kafelki",
    "token-5@castle2003": "koniec: twój donżon liczy się jak większy o 2 kafelki",
    "token-6": "koniec: 5 pkt",
    "token-7@zamek": "koniec: jeden kontrolowany nieukończony dom daje 1 pkt za kafelek",
    "token-7@castle2003": "koniec: jedno kontrolowane nieukończone domostwo daje 1 pkt za kafelek",
    "token-8@zamek": "koniec: jeden kontrolowany nieukończony chlew daje 2 pkt za kafelek",
    "token-8@castle2003": "koniec: jedna kontrolowana nieukończona wieża daje 2 pkt za kafelek",
    "token-9@zamek": "koniec: jedna kontrolowana nieukończona droga daje 1 pkt za kafelek",
    "token-9@castle2003": "koniec: jedna kontrolowana nieukończona ścieżka daje 1 pkt za kafelek, 2 pkt, gdy przy niej stoi fontanna",

    "s-end": "Koniec gry",
    "end-1": "Gra kończy się, gdy nie ma już kafelków. Żetony, które zostały na basztach, odpadają. Potem:",
    "end-meadow@zamek": "Łąki: każda łąka z mnichem daje 3 pkt za każdą kapliczkę na niej (także na polach startowych) graczowi, który ma na niej więcej mnichów; przy remisie nikt nie punktuje.",
    "end-meadow@castle2003": "Dziedzińce: każdy dziedziniec z kupcem daje 3 pkt za każdy stragan na nim (także na polach startowych) graczowi, który ma na nim więcej kupców; przy remisie nikt nie punktuje.",
    "end-family@zamek": "Siedziba rodu: znajdź największy pusty obszar, czyli największą grupę pustych pól połączonych bokami. Gracz, którego siedziba rodu obejmuje więcej kafelków, dostaje po 1 pkt za każde pole tego obszaru; przy remisie nikt.",
    "end-family@castle2003": "Donżon: znajdź największy pusty obszar, czyli największą grupę pustych pól połączonych bokami. Gracz, którego donżon obejmuje więcej kafelków, dostaje po 1 pkt za każde pole tego obszaru; przy remisie nikt.",
    "end-tokens": "Działają żetony „koniec”. Bez nich nieukończone obszary nie punktują. Wygrywa ten, kto ma najwięcej punktów.",
    "end-area": "największy pusty obszar: {n} pól",

    "s-sokol": "Sokół (dodatek)",
    "sokol-1": "Dodatek wnosi 18 kafelków z kaplicami i sokolimi gniazdami, 4 bramy w murze z dwoma nowymi polami startowymi, a każdemu graczowi dwie figury: {prince} i {falconer}.",
    "sokol-chapel@zamek": "Kaplica: budynek, który kładzie się i kończy jak dom. Figura na niej to kaznodzieja. Ukończona punktuje według wielkości: 1, 3, 6, 10, 15, 21, 28 pkt za 1–7 kafelków, 36 pkt za 8 i więcej. Nieukończona nie punktuje.",
    "sokol-chapel@castle2003": "Kaplica: budynek, który kładzie się i kończy jak domostwo. Figura na niej to kaznodzieja. Ukończona punktuje według wielkości: 1, 3, 6, 10, 15, 21, 28 pkt za 1–7 kafelków, 36 pkt za 8 i więcej. Nieukończona nie punktuje.",
    "sokol-prince": "{Prince}: staje w dowolnej roli i podwaja punkty, które zdobywasz za jego obszar (wtedy nie można użyć na nim żetonu x2).",
    "sokol-falconer": "{Falconer}: staje w dowolnej roli i daje ci jeszcze jeden żeton gniazda, gdy jego obszar jest punktowany.",
    "sokol-both": "Każda z tych figur liczy się jak jedna figura i żadna nie może stanąć na obszarze, który jej kafelek ukończa.",
    "sokol-nests": "Punktując ukończony obszar, bierzesz żeton gniazda za każde gniazdo narysowane na jego kafelkach (przy remisie nikt). Na koniec gracz, który ma więcej żetonów ({nests}), jeszcze raz punktuje największy pusty obszar.",
    "sokol-gates": "Znacznik przeskakuje pola bram na torze. Wariant „Stój! Kto idzie?”: w trakcie gry znacznik, który wchodzi na bramę ({gate}), zatrzymuje się tam, a reszta tego ruchu przepada.",

    "s-knights": "Rycerze i zamki (gra karciana)",
    "knights-1": "Gra karciana dla 2–4 graczy. Każdy ma te same 8 kart: sześć kart wojska i dwóch pasterzy. Każda karta wojska ma siłę przeciw każdemu rodzajowi zamku: kamiennemu, ceglanemu i drewnianemu.",
    "knights-2": "8 kafelków tasuje się i jeden wraca nieodkryty do pudełka: gra ma 7 rund. Miecz ma na początku najmłodszy gracz. W każdej rundzie odkrywa się kafelek:",
    "knights-castle": "Zamek: każdy kładzie zakryte dwie karty, potem wszyscy je odkrywają. Pasterze wracają do rąk. Karta wojska zagrana przez więcej niż jednego gracza idzie, każdy jej egzemplarz, do obozów właścicieli. Najsilniejsza z pozostałych kart przeciw temu rodzajowi zamku zdobywa zamek; jeśli nie została żadna, zamek bierze posiadacz miecza. Pozostałe karty idą do obozów właścicieli, a miecz bierze gracz z najmniejszą liczbą punktów za zamki (przy remisie najmłodszy z nich).",
    "knights-drum": "Bębenek: każdy bierze jedną wybraną kartę ze swojego obozu z powrotem do ręki.",
    "knights-end": "Po 7. rundzie decydują punkty za zamki; przy remisie więcej kart w ręce, potem najmłodszy.",
    "knights-card": "Rycerz: 6 przeciw kamiennemu, 3 przeciw ceglanemu, 2 przeciw drewnianemu zamkowi. Pasterz jest pusty i zawsze wraca.",

    "guide-title": "Twoja pierwsza gra",
    "guide-tile": "① To twój kafelek. Obracaj go przyciskami ⟲ ⟳ (albo klawiszem R), żeby pasował tam, gdzie chcesz.",
    "guide-spaces": "② Podświetlone pola na planszy to miejsca, gdzie pasuje tak obrócony; kliknij jedno, żeby go położyć. Blade pola pasują po obróceniu.",
    "guide-figure": "③ Teraz możesz postawić figurę na jednym obszarze swojego kafelka: każdy przycisk mówi, jaka to figura i jaki obszar, a wskazanie go pokazuje obszar na planszy. Albo wybierz „Bez figury”. Ukończone obszary punktują od razu.",
    "guide-hide": "Ukryj przewodnik",
    "guide-option": "Pokazuj przewodnik pierwszej gry",
    "guide-restart": "Uruchom przewodnik od nowa",
    "guide-restarted": "Przewodnik pokaże się na początku twojej następnej gry.",
  },
};

// One of the page's words, in `lang`, with the edition's terms and `values` filled in.
// A text may have one version per edition (`key@castle2003`), where the edition's words change the sentence
// around them (Polish cases and genders).
export function hw(lang, key, values = {}, edition = "zamek") {
  const table = HELP[lang] || HELP.en;
  const text = table[`${key}@${edition}`] ?? table[key] ?? HELP.en[`${key}@${edition}`] ?? HELP.en[key] ?? key;
  return fill(text, lang, edition, values);
}

export function term(lang, edition, key) {
  const words = TERMS[lang] || TERMS.en;
  return (words[edition] || words.zamek)[key] ?? words.common[key];
}

function fill(text, lang, edition, values) {
  return text.replace(/\{([A-Za-z][\w:-]*)\}/g, (whole, name) => {
    if (values[name] !== undefined) return String(values[name]);
    const lower = name[0].toLowerCase() + name.slice(1);
    const word = term(lang, edition, lower);
    if (word === undefined) return whole;
    return name === lower ? word : word[0].toUpperCase() + word.slice(1);
  });
}
