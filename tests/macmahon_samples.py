# ruff: noqa: E501  (the minimal file is the spec's, verbatim)
"""MacMahon files written by hand from spec ``formats/macmahon.md`` for the tests.

``HAND_BUILT`` is a complete 3.10-style file (every element a genuine file holds, in writer
order) with a Black-wins result, a jigo, a bye, a declared absence, a present-but-unpaired
player, handicap games, a referee decision with result points, fixed and non-fixed boards,
a preliminary participant whose level is outside the ledger's ranks, and unwanted pairings.
The values every test expects are worked out by hand in ``tests/replay/test_macmahon_scoring.py``.

``MINIMAL`` is the minimal file of spec §C, for which the spec also gives MacMahon 3.10's
own EGD export (Score, wins and SOS computed by the program itself).
"""

from __future__ import annotations

HAND_BUILT = """\
<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<Tournament typeversion="9">
  <NumberOfRounds>3</NumberOfRounds>
  <CurrentRoundNumber>3</CurrentRoundNumber>
  <TakeCurrentRoundInAccount>true</TakeCurrentRoundInAccount>
  <Name><![CDATA[Hand-built Cup]]></Name>
  <Description><![CDATA[Built by hand from the spec]]></Description>
  <DefaultAsianName>false</DefaultAsianName>
  <RatingAllowed>true</RatingAllowed>
  <RatingLowestOneDanRating>2050</RatingLowestOneDanRating>
  <RatingDeterminesRank>false</RatingDeterminesRank>
  <RatingDeterminesStartScore>false</RatingDeterminesStartScore>
  <LowerMacMahonBar>true</LowerMacMahonBar>
  <LowerMacMahonBarLevel>20k</LowerMacMahonBarLevel>
  <UpperMacMahonBar>true</UpperMacMahonBar>
  <UpperMacMahonBarLevel>2d</UpperMacMahonBarLevel>
  <UpperMacMahonBarRating>2150</UpperMacMahonBarRating>
  <ByeShouldResultInZeroSOSetc>false</ByeShouldResultInZeroSOSetc>
  <HalfScoreGroupsRoundDown>false</HalfScoreGroupsRoundDown>
  <HalfScoreGroupsRoundDownNotJigo>true</HalfScoreGroupsRoundDownNotJigo>
  <PreliminaryDefaultRegistration>false</PreliminaryDefaultRegistration>
  <OnlineEgdSupport>true</OnlineEgdSupport>
  <OnlineEgdSupportByPin>false</OnlineEgdSupportByPin>
  <HandicapUsed>true</HandicapUsed>
  <HandicapBelow>true</HandicapBelow>
  <HandicapBelowLevel>1d</HandicapBelowLevel>
  <HandicapByLevel>false</HandicapByLevel>
  <HandicapAdjustment>true</HandicapAdjustment>
  <HandicapAdjustmentValue>-2</HandicapAdjustmentValue>
  <HandicapLimit>true</HandicapLimit>
  <HandicapLimitValue>9</HandicapLimitValue>
  <HandicapIncludeInTieBreakers>true</HandicapIncludeInTieBreakers>
  <AllowJigo>false</AllowJigo>
  <Boardsize>19</Boardsize>
  <PairingsMarkFixedBoardnumbers>true</PairingsMarkFixedBoardnumbers>
  <PairingsMarkMissingResults>true</PairingsMarkMissingResults>
  <PairingsMarkWinner>false</PairingsMarkWinner>
  <PairingsMarkUnwantedPairings>true</PairingsMarkUnwantedPairings>
  <PairingsShowLevels>true</PairingsShowLevels>
  <PairingsShortNotationForLevel>true</PairingsShortNotationForLevel>
  <PairingsShowScores>true</PairingsShowScores>
  <PairingsShowHandicaps>true</PairingsShowHandicaps>
  <PairingsFontsize>14</PairingsFontsize>
  <PairingsBlackColumnWidth>221</PairingsBlackColumnWidth>
  <PairingsWhiteColumnWidth>221</PairingsWhiteColumnWidth>
  <ImportEncoding>UTF-8</ImportEncoding>
  <ExportColumnDelimiter><![CDATA[f]]></ExportColumnDelimiter>
  <ExportWalllistShowTournamentTitle>true</ExportWalllistShowTournamentTitle>
  <ExportEncoding>UTF-8</ExportEncoding>
  <VersionCreated>MacMahon 3.10</VersionCreated>
  <VersionSaved>MacMahon 3.10</VersionSaved>
  <MakePairingTopGroup>true</MakePairingTopGroup>
  <MakePairingTopGroupEverywhere>false</MakePairingTopGroupEverywhere>
  <MakePairingTopGroupStrictlyByTopBar>true</MakePairingTopGroupStrictlyByTopBar>
  <MakePairingTopGroupByNumberOfPlayersAuto>true</MakePairingTopGroupByNumberOfPlayersAuto>
  <MakePairingTopGroupByNumberOfPlayers>8</MakePairingTopGroupByNumberOfPlayers>
  <MakePairingTopGroupSeeding>true</MakePairingTopGroupSeeding>
  <MakePairingSeedingPlacementCriterion typeversion="2">
    <ShortName>SOS</ShortName>
  </MakePairingSeedingPlacementCriterion>
  <MakePairingTopGroupSeedingByRating>false</MakePairingTopGroupSeedingByRating>
  <MakePairingTopGroupSeedingByRatingRound>1</MakePairingTopGroupSeedingByRatingRound>
  <MakePairingOutsideTopGroupSameCountry>false</MakePairingOutsideTopGroupSameCountry>
  <MakePairingOutsideTopGroupSameClub>true</MakePairingOutsideTopGroupSameClub>
  <MakePairingOutsideTopGroupSameNationality>false</MakePairingOutsideTopGroupSameNationality>
  <MakePairingOutsideTopGroupStrengthDifference>true</MakePairingOutsideTopGroupStrengthDifference>
  <MakePairingOutsideTopGroupStrengthDifferenceValue>3</MakePairingOutsideTopGroupStrengthDifferenceValue>
  <MakePairingOutsideTopGroupColorBalance>true</MakePairingOutsideTopGroupColorBalance>
  <MakePairingOutsideTopGroupWeakOddMan>true</MakePairingOutsideTopGroupWeakOddMan>
  <MakePairingOutsideTopGroupSeeding>false</MakePairingOutsideTopGroupSeeding>
  <PrintWalllistLandscape>true</PrintWalllistLandscape>
  <Walllist typeversion="3">
    <ShowCountry>true</ShowCountry>
    <ShowClub>true</ShowClub>
    <ShowClubEgdName>false</ShowClubEgdName>
    <ShowClubAbbreviateName>false</ShowClubAbbreviateName>
    <ShowLevels>true</ShowLevels>
    <ShortNotationForLevel>true</ShortNotationForLevel>
    <ShowBarMembership>true</ShowBarMembership>
    <ShowRatings>true</ShowRatings>
    <MarkPreliminaryRegisteredParticipants>true</MarkPreliminaryRegisteredParticipants>
    <MarkResultsByReferree>true</MarkResultsByReferree>
    <ShowColors>true</ShowColors>
    <ShowHandicap>true</ShowHandicap>
    <ShowWarningMissingPairing>true</ShowWarningMissingPairing>
    <Fontsize>12</Fontsize>
    <NameColumnWidth>221</NameColumnWidth>
    <ClubColumnWidth>80</ClubColumnWidth>
    <ClubColumnAlignmentCenter>false</ClubColumnAlignmentCenter>
    <WeakSortCriteria>1</WeakSortCriteria>
    <SortCriterionDescriptor typeversion="2">
      <ShortName>Score</ShortName>
    </SortCriterionDescriptor>
    <SortCriterionDescriptor typeversion="2">
      <ShortName>SOS</ShortName>
    </SortCriterionDescriptor>
    <SortCriterionDescriptor typeversion="2">
      <ShortName>SOSOS</ShortName>
    </SortCriterionDescriptor>
  </Walllist>
  <Country typeversion="1">
    <InternetCode>de</InternetCode>
    <Name>Germany</Name>
    <Club typeversion="1">
      <Name>Berlin</Name>
      <EGDName>Berl</EGDName>
    </Club>
  </Country>
  <Country typeversion="1">
    <InternetCode>tr</InternetCode>
    <Name>Turkey</Name>
  </Country>
  <Country typeversion="1">
    <InternetCode>kr</InternetCode>
    <Name>Korea</Name>
  </Country>
  <DefaultCountry>de</DefaultCountry>
  <IndividualParticipant typeversion="1">
    <Id>1</Id>
    <Joker>false</Joker>
    <PreliminaryRegistration>false</PreliminaryRegistration>
    <ScoreAdjustment>false</ScoreAdjustment>
    <ScoreAdjustmentValue>0</ScoreAdjustmentValue>
    <SuperBarMember>true</SuperBarMember>
    <Comment><![CDATA[Champion]]></Comment>
    <GoPlayer typeversion="1">
      <AsianName>false</AsianName>
      <FirstName><![CDATA[Anna]]></FirstName>
      <Surname><![CDATA[Zander]]></Surname>
      <GoLevel>4d</GoLevel>
      <Rating>2450</Rating>
      <EgdPin>012345678</EgdPin>
      <Country>de</Country>
      <Club>Berlin</Club>
      <Nationality>de</Nationality>
    </GoPlayer>
  </IndividualParticipant>
  <IndividualParticipant typeversion="1">
    <Id>2</Id>
    <Joker>true</Joker>
    <PreliminaryRegistration>false</PreliminaryRegistration>
    <ScoreAdjustment>true</ScoreAdjustment>
    <ScoreAdjustmentValue>4</ScoreAdjustmentValue>
    <SuperBarMember>false</SuperBarMember>
    <GoPlayer typeversion="1">
      <AsianName>false</AsianName>
      <FirstName><![CDATA[Bora]]></FirstName>
      <Surname><![CDATA[Yilmaz]]></Surname>
      <GoLevel>1d</GoLevel>
      <Rating>2100</Rating>
      <EgdPin>0</EgdPin>
      <Country>tr</Country>
    </GoPlayer>
  </IndividualParticipant>
  <IndividualParticipant typeversion="1">
    <Id>3</Id>
    <Joker>false</Joker>
    <PreliminaryRegistration>false</PreliminaryRegistration>
    <ScoreAdjustment>false</ScoreAdjustment>
    <ScoreAdjustmentValue>0</ScoreAdjustmentValue>
    <SuperBarMember>false</SuperBarMember>
    <GoPlayer typeversion="1">
      <AsianName>false</AsianName>
      <FirstName><![CDATA[Dieter]]></FirstName>
      <Surname><![CDATA[Mueller]]></Surname>
      <GoLevel>10k</GoLevel>
      <Rating>0</Rating>
      <EgdPin>0</EgdPin>
      <Country>de</Country>
      <Club>Hamburg</Club>
    </GoPlayer>
  </IndividualParticipant>
  <IndividualParticipant typeversion="1">
    <Id>4</Id>
    <Joker>false</Joker>
    <PreliminaryRegistration>false</PreliminaryRegistration>
    <ScoreAdjustment>false</ScoreAdjustment>
    <ScoreAdjustmentValue>0</ScoreAdjustmentValue>
    <SuperBarMember>false</SuperBarMember>
    <GoPlayer typeversion="1">
      <AsianName>true</AsianName>
      <FirstName><![CDATA[Clara]]></FirstName>
      <Surname><![CDATA[Müller]]></Surname>
      <GoLevel>5K</GoLevel>
      <Rating>1650</Rating>
      <EgdPin>13579246</EgdPin>
      <Country>de</Country>
      <Club>Berlin</Club>
    </GoPlayer>
  </IndividualParticipant>
  <IndividualParticipant typeversion="1">
    <Id>5</Id>
    <Joker>false</Joker>
    <PreliminaryRegistration>false</PreliminaryRegistration>
    <ScoreAdjustment>false</ScoreAdjustment>
    <ScoreAdjustmentValue>0</ScoreAdjustmentValue>
    <SuperBarMember>false</SuperBarMember>
    <NotPlayingInRound>2</NotPlayingInRound>
    <GoPlayer typeversion="1">
      <AsianName>false</AsianName>
      <FirstName><![CDATA[Emil]]></FirstName>
      <Surname><![CDATA[Weber]]></Surname>
      <GoLevel>15k</GoLevel>
      <Rating>0</Rating>
      <EgdPin>0</EgdPin>
    </GoPlayer>
  </IndividualParticipant>
  <IndividualParticipant typeversion="1">
    <Id>6</Id>
    <Joker>false</Joker>
    <PreliminaryRegistration>false</PreliminaryRegistration>
    <ScoreAdjustment>true</ScoreAdjustment>
    <ScoreAdjustmentValue>2</ScoreAdjustmentValue>
    <SuperBarMember>false</SuperBarMember>
    <NotPlayingInRound>3</NotPlayingInRound>
    <GoPlayer typeversion="1">
      <AsianName>false</AsianName>
      <FirstName><![CDATA[Fritz]]></FirstName>
      <Surname><![CDATA[Becker]]></Surname>
      <GoLevel>25k</GoLevel>
      <Rating>0</Rating>
      <EgdPin>0</EgdPin>
    </GoPlayer>
  </IndividualParticipant>
  <IndividualParticipant typeversion="1">
    <Id>7</Id>
    <Joker>false</Joker>
    <PreliminaryRegistration>true</PreliminaryRegistration>
    <ScoreAdjustment>false</ScoreAdjustment>
    <ScoreAdjustmentValue>0</ScoreAdjustmentValue>
    <SuperBarMember>false</SuperBarMember>
    <NotPlayingInRound>1</NotPlayingInRound>
    <NotPlayingInRound>2</NotPlayingInRound>
    <NotPlayingInRound>3</NotPlayingInRound>
    <GoPlayer typeversion="1">
      <AsianName>true</AsianName>
      <FirstName><![CDATA[Minji]]></FirstName>
      <Surname><![CDATA[Kim]]></Surname>
      <GoLevel>33k</GoLevel>
      <Rating>0</Rating>
      <EgdPin>0</EgdPin>
      <Country>kr</Country>
      <Nationality>kr</Nationality>
    </GoPlayer>
  </IndividualParticipant>
  <TournamentRound typeversion="2">
    <RoundNumber>1</RoundNumber>
    <LastUpdated>2024-05-01 09:30:00</LastUpdated>
    <Pairing typeversion="2">
      <ForcedPairing>true</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>1</Black>
      <White>2</White>
      <Handicap>0</Handicap>
      <AllowJigo>false</AllowJigo>
      <Result>1-0</Result>
      <ResultByReferee>false</ResultByReferee>
      <ResultPoints>0</ResultPoints>
      <BoardNumber>1</BoardNumber>
      <BoardNumberFixed>true</BoardNumberFixed>
      <Comment><![CDATA[Top board]]></Comment>
      <CreationTime>2024-05-01 09:00:00</CreationTime>
    </Pairing>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>3</Black>
      <White>4</White>
      <Handicap>3</Handicap>
      <AllowJigo>false</AllowJigo>
      <Result>1-0</Result>
      <ResultByReferee>false</ResultByReferee>
      <ResultPoints>0</ResultPoints>
      <BoardNumber>2</BoardNumber>
      <BoardNumberFixed>false</BoardNumberFixed>
      <CreationTime>2024-05-01 09:00:00</CreationTime>
    </Pairing>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>6</Black>
      <White>5</White>
      <Handicap>9</Handicap>
      <AllowJigo>true</AllowJigo>
      <Result>½-½</Result>
      <ResultByReferee>false</ResultByReferee>
      <ResultPoints>2</ResultPoints>
      <BoardNumber>3</BoardNumber>
      <BoardNumberFixed>false</BoardNumberFixed>
      <CreationTime>2024-05-01 09:00:00</CreationTime>
    </Pairing>
  </TournamentRound>
  <TournamentRound typeversion="2">
    <RoundNumber>2</RoundNumber>
    <LastUpdated>2024-05-01 14:10:00</LastUpdated>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>2</Black>
      <White>4</White>
      <Handicap>0</Handicap>
      <AllowJigo>false</AllowJigo>
      <Result>0-1</Result>
      <ResultByReferee>true</ResultByReferee>
      <ResultPoints>3</ResultPoints>
      <BoardNumber>1</BoardNumber>
      <BoardNumberFixed>false</BoardNumberFixed>
      <CreationTime>2024-05-01 13:00:00</CreationTime>
    </Pairing>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>1</Black>
      <White>3</White>
      <Handicap>0</Handicap>
      <AllowJigo>false</AllowJigo>
      <Result>1-0</Result>
      <ResultByReferee>false</ResultByReferee>
      <ResultPoints>0</ResultPoints>
      <BoardNumber>2</BoardNumber>
      <BoardNumberFixed>false</BoardNumberFixed>
      <CreationTime>2024-05-01 13:00:00</CreationTime>
    </Pairing>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>true</PairingWithBye>
      <Black>6</Black>
      <BoardNumber>3</BoardNumber>
      <BoardNumberFixed>false</BoardNumberFixed>
      <CreationTime>2024-05-01 13:00:00</CreationTime>
    </Pairing>
  </TournamentRound>
  <TournamentRound typeversion="2">
    <RoundNumber>3</RoundNumber>
    <LastUpdated>2024-05-02 09:15:00</LastUpdated>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>4</Black>
      <White>1</White>
      <Handicap>0</Handicap>
      <AllowJigo>false</AllowJigo>
      <Result>?-?</Result>
      <ResultByReferee>false</ResultByReferee>
      <ResultPoints>0</ResultPoints>
      <BoardNumber>5</BoardNumber>
      <BoardNumberFixed>true</BoardNumberFixed>
      <CreationTime>2024-05-02 09:00:00</CreationTime>
    </Pairing>
    <Pairing typeversion="2">
      <ForcedPairing>false</ForcedPairing>
      <PairingWithBye>false</PairingWithBye>
      <Black>2</Black>
      <White>5</White>
      <Handicap>0</Handicap>
      <AllowJigo>false</AllowJigo>
      <Result>0-1</Result>
      <ResultByReferee>false</ResultByReferee>
      <ResultPoints>0</ResultPoints>
      <BoardNumber>6</BoardNumber>
      <BoardNumberFixed>false</BoardNumberFixed>
      <CreationTime>2024-05-02 09:00:00</CreationTime>
    </Pairing>
  </TournamentRound>
  <UnwantedPairing typeversion="1">
    <ParticipantOne>1</ParticipantOne>
    <ParticipantTwo>2</ParticipantTwo>
    <Forbidden>false</Forbidden>
  </UnwantedPairing>
  <UnwantedPairing typeversion="1">
    <ParticipantOne>4</ParticipantOne>
    <ParticipantTwo>6</ParticipantTwo>
    <Forbidden>true</Forbidden>
  </UnwantedPairing>
</Tournament>
"""

MINIMAL = """\
<?xml version="1.0" encoding="UTF-8"?>
<Tournament typeversion="9">
  <NumberOfRounds>2</NumberOfRounds>
  <CurrentRoundNumber>2</CurrentRoundNumber>
  <TakeCurrentRoundInAccount>true</TakeCurrentRoundInAccount>
  <Name><![CDATA[Mini]]></Name>
  <LowerMacMahonBar>true</LowerMacMahonBar>
  <LowerMacMahonBarLevel>20k</LowerMacMahonBarLevel>
  <UpperMacMahonBar>true</UpperMacMahonBar>
  <UpperMacMahonBarLevel>1d</UpperMacMahonBarLevel>
  <HandicapBelowLevel>1d</HandicapBelowLevel>
  <Walllist typeversion="3">
    <WeakSortCriteria>1</WeakSortCriteria>
    <SortCriterionDescriptor typeversion="2"><ShortName>Score</ShortName></SortCriterionDescriptor>
    <SortCriterionDescriptor typeversion="2"><ShortName>SOS</ShortName></SortCriterionDescriptor>
  </Walllist>
  <Country typeversion="1"><InternetCode>de</InternetCode><Name>Germany</Name><Club typeversion="1"><Name>Berlin</Name><EGDName>B</EGDName></Club></Country>
  <IndividualParticipant typeversion="1"><Id>1</Id><GoPlayer typeversion="1"><FirstName>Anna</FirstName><Surname>Muster</Surname><GoLevel>3k</GoLevel><Country>de</Country><Club>Berlin</Club></GoPlayer></IndividualParticipant>
  <IndividualParticipant typeversion="1"><Id>2</Id><GoPlayer typeversion="1"><FirstName>Bert</FirstName><Surname>Beispiel</Surname><GoLevel>1d</GoLevel></GoPlayer></IndividualParticipant>
  <IndividualParticipant typeversion="1"><Id>3</Id><NotPlayingInRound>2</NotPlayingInRound><GoPlayer typeversion="1"><Surname>Cecil</Surname><GoLevel>15k</GoLevel></GoPlayer></IndividualParticipant>
  <TournamentRound typeversion="2">
    <RoundNumber>1</RoundNumber>
    <LastUpdated>2024-05-01 12:00:00</LastUpdated>
    <Pairing typeversion="2"><Black>1</Black><White>2</White><Result>1-0</Result><BoardNumber>1</BoardNumber></Pairing>
    <Pairing typeversion="2"><PairingWithBye>true</PairingWithBye><Black>3</Black><BoardNumber>2</BoardNumber></Pairing>
  </TournamentRound>
  <TournamentRound typeversion="2">
    <RoundNumber>2</RoundNumber>
    <LastUpdated>2024-05-01 15:00:00</LastUpdated>
    <Pairing typeversion="2"><Black>2</Black><White>1</White><Handicap>0</Handicap><Result>½-½</Result><BoardNumber>1</BoardNumber></Pairing>
  </TournamentRound>
</Tournament>
"""
